package io.jvmps.scheduler.config;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.RegisterRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonConfigurationTest {
    private final JsonMapper json = JsonMapper.builder().addModule(new JsonConfiguration().nodeRoleModule()).build();

    @Test
    void readsOurNamesAndMindSporeNamesCaseInsensitively() {
        assertThat(role("server")).isEqualTo(NodeRole.SERVER);
        assertThat(role("WORKER")).isEqualTo(NodeRole.WORKER);
        assertThat(role("MS_PSERVER")).isEqualTo(NodeRole.SERVER);
        assertThat(role("ms_worker")).isEqualTo(NodeRole.WORKER);
    }

    @Test
    void unknownRoleFailsListingAcceptedValues() {
        assertThatThrownBy(() -> role("boss"))
                .isInstanceOf(DatabindException.class)
                .hasMessageContaining("boss")
                .hasMessageContaining("accepted: scheduler, server, worker");
    }

    private NodeRole role(String text) {
        return json.readValue("{\"role\":\"" + text + "\",\"host\":\"h\",\"rsocketPort\":1,\"httpPort\":0}", RegisterRequest.class).role();
    }
}
