package io.wecominbox.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This node's name: server.xml's variable {@code node.name} (env NODE_NAME), by default the Liberty server
 * name. The same value is the node's transaction recovery identity, so it must be unique in the deployment
 * and stable across the node's restarts.
 */
@ApplicationScoped
public class NodeIdentity {

    @Inject
    @ConfigProperty(name = "node.name")
    Optional<String> configured;

    public String name() {
        return configured.filter(n -> !n.isBlank())
            .orElseGet(() -> System.getProperty("wlp.server.name", "wecom-inbox"));
    }
}
