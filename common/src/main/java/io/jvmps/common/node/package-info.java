/**
 * The settings every server and worker binds the same way: where the scheduler is ({@code ps.scheduler.*}) and how
 * this node presents itself ({@code ps.node.*}).
 */
package io.jvmps.common.node;
