/** The shared cluster secret: how it is resolved, sent (HTTP header, RSocket setup) and checked. */
package io.jvmps.common.security;
