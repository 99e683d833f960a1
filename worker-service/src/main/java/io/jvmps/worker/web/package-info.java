/** The worker's REST status endpoint. */
package io.jvmps.worker.web;
