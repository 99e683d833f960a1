/** REST controllers under {@code /api/v1} and the mapping of errors to {@code ErrorBody} JSON. */
package io.jvmps.scheduler.web;
