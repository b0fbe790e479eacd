package io.wecominbox.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeIdentityTest {

    @Test
    void aFeaturesOverrideWinsElseTheNodeName() {
        NodeIdentity node = new NodeIdentity();
        node.configured = Optional.of("node-a");

        assertEquals("node-a", node.name());
        assertEquals("node-a", node.or(Optional.empty()));
        assertEquals("node-a", node.or(Optional.of(" ")), "a blank override is unset");
        assertEquals("replayer", node.or(Optional.of("replayer")));
    }

    @Test
    void withoutANodeNameTheServerNameServesEveryone() {
        NodeIdentity node = new NodeIdentity();
        node.configured = Optional.empty();

        String server = System.getProperty("wlp.server.name", "wecom-inbox");
        assertEquals(server, node.name());
        assertEquals(server, node.or(Optional.empty()));
    }
}
