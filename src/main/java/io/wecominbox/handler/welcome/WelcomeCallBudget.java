package io.wecominbox.handler.welcome;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * WeCom's frequency limit for send_welcome_msg (10,000 calls a minute per corp and API; above it WeCom answers
 * 45009): at most {@code wecom.handler.welcome.calls-per-minute} calls (default 10000; set it lower when several
 * apps share a corp) start in any 60 s per app. A burst goes out at once up to the limit; beyond it a call
 * waits here for the oldest call of the minute to age out, a wait bounded by the code's deadline, instead of
 * being refused by WeCom. Visible as the gauge {@code wecom.welcome.budget.wait} (ms a call waited last) and
 * the counter {@code wecom.welcome.budget.exhausted}.
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

    private final Map<String, CallWindow> perApp = new ConcurrentHashMap<>();

    /** Waits for this app's next call slot; false (and no slot taken) when it would come after {@code latest}. */
    public boolean acquire(String app, Instant latest) {
        CallWindow window = perApp.computeIfAbsent(app, a -> {
            CallWindow s = new CallWindow(Math.max(1, callsPerMinute), Duration.ofMinutes(1));
            metrics.gauge("wecom.welcome.budget.wait", s::lastWaitMillis, new Tag("app", a));
            return s;
        });
        Instant slot = window.reserve(clock.instant(), latest);
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
        return callsPerMinute + " calls in any minute per app";
    }

    /** The call starts of one app in the last window: a new call may start when fewer than the limit did. */
    static final class CallWindow {
        private final int limit;
        private final Duration length;
        private final Deque<Instant> starts = new ArrayDeque<>();
        private volatile long lastWaitMillis;

        CallWindow(int limit, Duration length) {
            this.limit = limit;
            this.length = length;
        }

        /** The instant this call may start (now, or when the oldest start leaves the window); null if after latest. */
        synchronized Instant reserve(Instant now, Instant latest) {
            while (!starts.isEmpty() && !starts.peekFirst().plus(length).isAfter(now)) {
                starts.pollFirst();
            }
            Instant slot = starts.size() < limit ? now : starts.peekFirst().plus(length);
            if (slot.isAfter(latest)) {
                return null;
            }
            if (starts.size() >= limit) {
                starts.pollFirst();
            }
            // slots are handed out in time order, so the deque stays sorted
            starts.addLast(slot.isBefore(now) ? now : slot);
            lastWaitMillis = Duration.between(now, slot).toMillis();
            return slot;
        }

        long lastWaitMillis() {
            return lastWaitMillis;
        }
    }
}
