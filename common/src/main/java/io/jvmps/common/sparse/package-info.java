/**
 * Sparse (embedding) tables as the wire sees them: the table declaration, the placement of row ids on
 * servers, and the binary codec of sparse pull and push requests.
 */
package io.jvmps.common.sparse;
