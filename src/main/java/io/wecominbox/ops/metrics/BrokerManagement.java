package io.wecominbox.ops.metrics;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import javax.net.ssl.SSLContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Access to the broker's management API, from wecom.broker.management.url / .user / .password: a user whose role
 * may only read queue and divert attributes (src/main/broker/wecom-inbox-management.xml), never the console
 * admin. Without a password there is none, and what needs it (queue depths, the handler-routes readiness check)
 * says so. An https URL is checked against the JVM's trust store, or against wecom.broker.management.trust-certificate
 * alone; when that file cannot be read there is no access either (never a fallback to trusting anything).
 */
@ApplicationScoped
public class BrokerManagement {

    private static final Logger LOG = Logger.getLogger(BrokerManagement.class.getName());

    @Inject
    @ConfigProperty(name = "wecom.broker.management.url")
    Optional<String> url;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.user", defaultValue = "wecom-monitor")
    String user;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.password")
    Optional<String> password;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.trust-certificate")
    Optional<String> trustCertificate;

    private JolokiaClient client;
    private String unavailable = "not configured (wecom.broker.management.url, .user, .password)";

    @PostConstruct
    void init() {
        if (url.isEmpty() || password.isEmpty() || password.get().isEmpty()) {
            return;
        }
        URI jolokia = URI.create(url.get());
        SSLContext tls = null;
        if (trustCertificate.isPresent() && !trustCertificate.get().isBlank()) {
            try {
                tls = ManagementTls.trusting(Path.of(trustCertificate.get()));
            } catch (IOException e) {
                unavailable = "its trust certificate (wecom.broker.management.trust-certificate) is unusable: " + e.getMessage();
                LOG.severe("broker management off: " + unavailable);
                return;
            }
        }
        if (ManagementTls.sendsPasswordInClear(jolokia)) {
            LOG.warning("broker management at " + jolokia.getHost() + " over plain HTTP: the management user's password"
                    + " crosses the network in clear; serve the console over https (docs/deploy.md, section 3)");
        }
        client = new JolokiaClient(jolokia, user, password.get(), tls);
    }

    public Optional<JolokiaClient> client() {
        return Optional.ofNullable(client);
    }

    /** Why there is no client, for messages; meaningless while {@link #client()} has one. */
    public String unavailable() {
        return unavailable;
    }
}
