/**
 * Sparse (embedding) tables held on this server: rows created on first update, initial values computed
 * from (seed, id), flat block storage with a primitive index, and a memory cap shared by all tables.
 */
package io.jvmps.server.sparse;
