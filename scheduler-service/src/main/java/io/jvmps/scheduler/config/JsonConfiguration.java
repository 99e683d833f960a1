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
 * an unknown role fails with a message listing the accepted values; a field given twice is refused.
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

    /**
     * @return a customizer that refuses a JSON object naming one field twice (Jackson would keep the last value
     *         silently): the request is answered 400 naming the field
     */
    @Bean
    public org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer strictDuplicates() {
        return builder -> builder.enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION);
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
