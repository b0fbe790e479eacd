package io.wecominbox.handler.welcome;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * WeCom's frequency limit for send_welcome_msg (10,000 calls a minute per corp and API; above it WeCom answers
 * 45009): calls are spaced at the configured rate per app ({@code wecom.handler.welcome.calls-per-minute},
 * default 10000; set it lower when several apps share a corp), so a burst waits here, where the wait is
 * bounded by the code's deadline, instead of being refused by WeCom. Visible as the gauge
 * {@code wecom.welcome.budget.wait} (ms a call waited last) and the counter {@code wecom.welcome.budget.exhausted}.
 */
@ApplicationScoped
public class WelcomeCallBudget {

    @Inject
    @ConfigProperty(name = "wecom.handler.welcome.calls-per-minute", defaultValue = "10000")
    int callsPerMinute;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    private final Map<String, CallSpacing> perApp = new ConcurrentHashMap<>();

    /** Waits for this app's next call slot; false (and no slot taken) when it would come after {@code latest}. */
    public boolean acquire(String app, Instant latest) {
        CallSpacing spacing = perApp.computeIfAbsent(app, a -> {
            CallSpacing s = new CallSpacing(Duration.ofNanos(60_000_000_000L / Math.max(1, callsPerMinute)));
            metrics.gauge("wecom.welcome.budget.wait", s::lastWaitMillis, new Tag("app", a));
            return s;
        });
        Instant slot = spacing.reserve(clock.instant(), latest);
        if (slot == null) {
            return false;
        }
        Duration wait = Duration.between(clock.instant(), slot);
        if (!wait.isNegative() && !wait.isZero()) {
            try {
                Thread.sleep(wait.toMillis(), wait.toNanosPart() % 1_000_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    String describe() {
        return callsPerMinute + " calls a minute per app";
    }

    /** The next free slot of one app, one call per interval (a smooth rate; no burst above it). */
    static final class CallSpacing {
        private final Duration interval;
        private Instant next = Instant.EPOCH;
        private volatile long lastWaitMillis;

        CallSpacing(Duration interval) {
            this.interval = interval;
        }

        synchronized Instant reserve(Instant now, Instant latest) {
            Instant slot = next.isAfter(now) ? next : now;
            if (slot.isAfter(latest)) {
                return null;
            }
            next = slot.plus(interval);
            lastWaitMillis = Duration.between(now, slot).toMillis();
            return slot;
        }

        long lastWaitMillis() {
            return lastWaitMillis;
        }
    }
}
