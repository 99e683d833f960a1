/** The client library's entry: {@link io.jvmps.client.PsJob} joins a running job as one of its workers, with {@link io.jvmps.client.ClientSettings}. */
package io.jvmps.client;
