/** HTTP endpoints of a server ({@code /api/v1/...}); actuator endpoints come from Spring Boot. */
package io.jvmps.server.web;
