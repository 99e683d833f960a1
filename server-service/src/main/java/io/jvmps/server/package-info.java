/** The parameter server: stores dense slices, applies pushed gradients with a server-side optimizer, serves pulls. */
package io.jvmps.server;
