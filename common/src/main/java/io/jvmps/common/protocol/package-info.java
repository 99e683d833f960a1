/** Wire protocol shared by every role: RSocket route names, error codes and control-message records. */
package io.jvmps.common.protocol;
