/**
 * How every role's HTTP server treats connections and request bodies: one request per connection, bodies over
 * the size limit refused whole with a JSON error, and the one writer of those error answers.
 */
package io.jvmps.common.http;
