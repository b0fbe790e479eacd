package io.wecominbox.ops.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The admin login's settings, lockout state and metric, shared by every request ({@link AdminLoginFilter}).
 * Settings (environment overrides as usual, e.g. WECOM_SECURITY_ADMIN_REQUIRES_TLS):
 * <ul>
 *   <li>{@value #REQUIRES_TLS} (true): the admin API and dashboard answer over HTTPS only; the dev and test stack
 *       turn it off to call them over plain HTTP.</li>
 *   <li>{@value #SOURCE_FAILURES} (5), {@value #USER_FAILURES} (20): wrong passwords from one address, and for
 *       one user name from any address, that lock it; 0 turns that lock off.</li>
 *   <li>{@value #LOCKOUT_SECONDS} (300): how long failures count, and how long a lock lasts.</li>
 * </ul>
 */
@ApplicationScoped
public class AdminLoginGuard {

    // written out again in the @ConfigProperty annotations below: DocsMatchCodeTest reads defaults from the literal
    static final String REQUIRES_TLS = "wecom.security.admin-requires-tls";
    static final String SOURCE_FAILURES = "wecom.security.lockout.source-failures";
    static final String USER_FAILURES = "wecom.security.lockout.user-failures";
    static final String LOCKOUT_SECONDS = "wecom.security.lockout.seconds";
    public static final String LOCKOUTS = "wecom.security.lockouts";

    private static final Logger LOG = Logger.getLogger(AdminLoginGuard.class.getName());
    private static final Metadata LOCKOUTS_META = Metadata.builder().withName(LOCKOUTS)
            .withDescription("Admin logins locked after wrong passwords, by lock (source address or user name)").build();

    @Inject
    @ConfigProperty(name = "wecom.security.admin-requires-tls", defaultValue = "true")
    boolean requiresTls;

    @Inject
    @ConfigProperty(name = "wecom.security.lockout.source-failures", defaultValue = "5")
    int sourceFailures;

    @Inject
    @ConfigProperty(name = "wecom.security.lockout.user-failures", defaultValue = "20")
    int userFailures;

    @Inject
    @ConfigProperty(name = "wecom.security.lockout.seconds", defaultValue = "300")
    long lockoutSeconds;

    @Inject
    MetricRegistry registry;

    @Inject
    Clock clock;

    private AdminLockout lockout;

    @PostConstruct
    void init() {
        lockout = new AdminLockout(sourceFailures, userFailures, Duration.ofSeconds(Math.max(1, lockoutSeconds)), clock);
        // both series exist from the start, so an alert on their increase has a baseline
        registry.counter(LOCKOUTS_META, new Tag("lock", AdminLockout.SOURCE));
        registry.counter(LOCKOUTS_META, new Tag("lock", AdminLockout.USER));
        if (!requiresTls) {
            LOG.warning("the admin API and dashboard accept logins over plain HTTP (" + REQUIRES_TLS + "=false):"
                    + " for a dev or test stack only");
        }
    }

    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean: the metric series and the plain-HTTP warning appear at start
    }

    public boolean requiresTls() {
        return requiresTls;
    }

    // public: called through the CDI client proxy
    public Optional<AdminLockout.Refusal> refusal(String source, String user) {
        return lockout.refusal(source, user);
    }

    public void failed(String source, String user) {
        List<String> locked = lockout.failed(source, user);
        for (String scope : locked) {
            registry.counter(LOCKOUTS_META, new Tag("lock", scope)).inc();
            // the address is no secret; a user name is only ever its keyed hash (BasicUser)
            LOG.warning(scope.equals(AdminLockout.SOURCE)
                    ? "admin login: source " + source + " locked for " + lockoutSeconds + " s after " + sourceFailures
                            + " wrong passwords"
                    : "admin login: user " + user + " locked for " + lockoutSeconds + " s after " + userFailures
                            + " wrong passwords from any source (the last from " + source + ")");
        }
    }

    public void succeeded(String source) {
        lockout.succeeded(source);
    }
}
