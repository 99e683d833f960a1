/** Binary frames for tensor data and pull requests: one stateless codec per frame type, little-endian, zero-copy encode. */
package io.jvmps.common.codec;
