package io.wecominbox.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This node's name: server.xml's variable {@code node.name} (env NODE_NAME), by default the Liberty server
 * name. The same value is the node's transaction recovery identity, so it must be unique in the deployment
 * and stable across the node's restarts. The one source of the name: the heartbeat, the dashboard, and the
 * runner of replays and reconcile passes ({@link #or}) all take it from here.
 */
@ApplicationScoped
public class NodeIdentity {

    @Inject
    @ConfigProperty(name = "node.name")
    Optional<String> configured;

    public String name() {
        return or(configured);
    }

    /** A feature's own override of the name when set (not blank), else this node's name. */
    public String or(Optional<String> override) {
        return override.filter(n -> !n.isBlank())
            .orElseGet(() -> configured.filter(n -> !n.isBlank())
                .orElseGet(() -> System.getProperty("wlp.server.name", "wecom-inbox")));
    }
}
