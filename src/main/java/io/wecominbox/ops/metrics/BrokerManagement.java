package io.wecominbox.ops.metrics;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Access to the broker's management API, from wecom.broker.management.url / .user / .password (the dev stack
 * hands Liberty the console admin's; in production a user with read-only management access). Without a
 * password there is none, and what needs it (queue depths, the handler-routes readiness check) says so.
 */
@ApplicationScoped
public class BrokerManagement {

    @Inject
    @ConfigProperty(name = "wecom.broker.management.url")
    Optional<String> url;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.user", defaultValue = "admin")
    String user;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.password")
    Optional<String> password;

    private JolokiaClient client;

    @PostConstruct
    void init() {
        if (url.isPresent() && password.isPresent() && !password.get().isEmpty()) {
            client = new JolokiaClient(URI.create(url.get()), user, password.get());
        }
    }

    public Optional<JolokiaClient> client() {
        return Optional.ofNullable(client);
    }
}
