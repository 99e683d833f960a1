/** Test helpers: a hand-moved clock and ready-made registration requests. */
package io.jvmps.scheduler.support;
