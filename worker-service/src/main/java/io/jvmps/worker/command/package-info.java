/** What the worker jar's commands ({@code predict}, {@code clicks}) share: their {@code --name=value} arguments. */
package io.jvmps.worker.command;
