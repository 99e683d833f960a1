package io.jvmps.common.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterViewEventsTest {
    @Test
    void handsOverTheDataOfViewEventsAndSkipsCommentsAndOtherEvents() {
        List<String> got = new ArrayList<>();
        ClusterViewEvents events = new ClusterViewEvents(got::add);
        for (String line : List.of(":keep-alive", "", "id:3", "event:view", "data:{\"epoch\":3}", "",
                "event: snapshot", "data: {\"other\":1}", "", "data: {\"a\":", "data: 1}", "", "event:view", "")) {
            events.line(line);
        }
        assertThat(got).containsExactly("{\"epoch\":3}", "{\"a\":\n1}");
    }
}
