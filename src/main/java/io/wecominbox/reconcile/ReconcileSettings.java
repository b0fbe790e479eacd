package io.wecominbox.reconcile;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The reconciliation pull's settings ({@code wecom.reconcile.*}, environment overrides as usual; docs/operations.md).
 * Read through methods: a field of a normal-scoped bean read from outside goes to its proxy.
 */
@ApplicationScoped
public class ReconcileSettings {

    @Inject
    @ConfigProperty(name = "wecom.reconcile.schedule.enabled", defaultValue = "true")
    private boolean scheduleEnabled;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.interval", defaultValue = "PT30M")
    private Duration interval;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.initial-delay", defaultValue = "PT5M")
    private Duration initialDelay;

    /** 600 a minute: 6 % of WeCom's 10,000 per API and corp, leaving the rest to everything else. */
    @Inject
    @ConfigProperty(name = "wecom.reconcile.calls-per-minute", defaultValue = "600")
    private int callsPerMinute;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.members-per-call", defaultValue = "100")
    private int membersPerCall;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.page-limit", defaultValue = "100")
    private int pageLimit;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.backoff-initial", defaultValue = "PT60S")
    private Duration backoffInitial;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.backoff-max", defaultValue = "PT15M")
    private Duration backoffMax;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.max-attempts", defaultValue = "8")
    private int maxAttempts;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.lease", defaultValue = "PT5M")
    private Duration lease;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.resume-check", defaultValue = "PT1M")
    private Duration resumeCheck;

    @Inject
    @ConfigProperty(name = "wecom.reconcile.node")
    private Optional<String> node;

    boolean scheduleEnabled() {
        return scheduleEnabled;
    }

    Duration interval() {
        return interval;
    }

    Duration initialDelay() {
        return initialDelay;
    }

    int callsPerMinute() {
        return callsPerMinute;
    }

    Duration backoffInitial() {
        return backoffInitial;
    }

    Duration backoffMax() {
        return backoffMax;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    Duration lease() {
        return lease;
    }

    Duration resumeCheck() {
        return resumeCheck;
    }

    Optional<String> node() {
        return node;
    }

    Backoff backoff() {
        return new Backoff(backoffInitial, backoffMax, maxAttempts);
    }

    int pageLimit() {
        return Math.max(1, Math.min(100, pageLimit));
    }

    int membersPerCall() {
        return Math.max(1, Math.min(100, membersPerCall));
    }
}
