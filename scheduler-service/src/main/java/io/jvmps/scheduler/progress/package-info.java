/** Job progress: latest progress report per worker, final results and the job status. */
package io.jvmps.scheduler.progress;
