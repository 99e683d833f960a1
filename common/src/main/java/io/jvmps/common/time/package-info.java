/** Time sources shared by the services: the monotonic clock that deadlines and failure detection read. */
package io.jvmps.common.time;
