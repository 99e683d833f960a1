package io.jvmps.scheduler.config;

import io.jvmps.common.cluster.NodeRole;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * JSON settings of the REST API: roles are read with {@link NodeRole#parse(String)}, so
 * {@code "server"}, {@code "SERVER"} and the MindSpore name {@code "MS_PSERVER"} are all accepted and
 * an unknown role fails with a message listing the accepted values.
 */
@Configuration(proxyBeanMethods = false)
public class JsonConfiguration {

    /** @return a module with the lenient {@link NodeRole} reader; Boot adds module beans to its JsonMapper */
    @Bean
    public JacksonModule nodeRoleModule() {
        SimpleModule module = new SimpleModule("jvm-ps-node-role");
        module.addDeserializer(NodeRole.class, new NodeRoleDeserializer());
        return module;
    }

    /** Reads a role by our name or the MindSpore name, case-insensitively. */
    static final class NodeRoleDeserializer extends ValueDeserializer<NodeRole> {
        @Override
        public NodeRole deserialize(JsonParser p, DeserializationContext ctxt) {
            String text = p.getValueAsString();
            try {
                return NodeRole.parse(text);
            } catch (IllegalArgumentException e) {
                return (NodeRole) ctxt.handleWeirdStringValue(NodeRole.class, text, e.getMessage());
            }
        }
    }
}
