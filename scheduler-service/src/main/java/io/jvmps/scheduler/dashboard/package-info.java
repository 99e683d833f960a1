/** The live dashboard: cluster events, snapshots, the server-sent-event stream and the page itself. */
package io.jvmps.scheduler.dashboard;
