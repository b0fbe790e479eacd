package io.wecominbox.pacing;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * A consumer asks before each batch; while the callback path is under pressure it waits, in short slices, up to
 * its urgency's limit: a welcome never waits, a bot reply a fraction of a second, the handlers nobody waits on up
 * to a few seconds at a time, then they take one batch (a larger one, for the wait) and ask again. The wait
 * happens before the batch is taken, so the messages behind it stay on the queue for the other sessions and the
 * batch that follows takes them all. Timer {@code wecom.pacing.yield{handler}}: the waits.
 */
@ApplicationScoped
public class ConsumerPacing {

    static final Duration SLICE = Duration.ofMillis(20);

    @Inject
    CallbackPressure pressure;

    @Inject
    MetricRegistry metrics;

    @Inject
    @ConfigProperty(name = "wecom.pacing.prompt.max-yield-millis", defaultValue = "250")
    long promptMaxYieldMillis;

    @Inject
    @ConfigProperty(name = "wecom.pacing.catch-up.max-yield-millis", defaultValue = "5000")
    long catchUpMaxYieldMillis;

    /** Waits while the callback path is under pressure, at most the urgency's limit; returns how long it waited. */
    public Duration beforeBatch(String handler, Urgency urgency) {
        Duration waited = hold(pressure::pressed, maxYield(urgency), Thread::sleep);
        if (!waited.isZero()) {
            metrics.timer("wecom.pacing.yield", new Tag("handler", handler)).update(waited);
        }
        return waited;
    }

    /** The longest one wait of a handler of this urgency; zero: it never waits. */
    Duration maxYield(Urgency urgency) {
        return switch (urgency) {
            case DEADLINE -> Duration.ZERO;
            case PROMPT -> Duration.ofMillis(Math.max(0, promptMaxYieldMillis));
            case CATCH_UP -> Duration.ofMillis(Math.max(0, catchUpMaxYieldMillis));
        };
    }

    /** How a wait sleeps: {@link Thread#sleep}, or a test's clock. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    /**
     * Sleeps a slice at a time while {@code pressed} holds, until {@code max} is spent: the time spent, counted in
     * slices (what was asked of the scheduler, whatever it gave). An interrupt ends the wait and is kept.
     */
    static Duration hold(BooleanSupplier pressed, Duration max, Sleeper sleeper) {
        long waited = 0;
        long limit = max.toMillis();
        while (waited < limit && pressed.getAsBoolean()) {
            long slice = Math.min(SLICE.toMillis(), limit - waited);
            try {
                sleeper.sleep(slice);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            waited += slice;
        }
        return Duration.ofMillis(waited);
    }
}
