/** Per-parameter placement (PS-managed or worker-local) and the synchronisation of worker-local parameters. */
package io.jvmps.worker.placement;
