/** The cluster model: roles, node descriptions and the scheduler's cluster view. */
package io.jvmps.common.cluster;
