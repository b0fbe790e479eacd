package io.wecominbox.dedup;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Per tier (hot, cold): how long a claim took, how often the store was unavailable, and whether its
 * circuit breaker is open right now. The tier is the only label: never a key.
 */
@ApplicationScoped
public class StoreMetrics {

    @Inject
    MetricRegistry metrics;

    void claimed(String tier, long startedNanos, boolean storeDown) {
        metrics.timer("wecom.dedup.store.latency", new Tag("tier", tier))
            .update(Duration.ofNanos(System.nanoTime() - startedNanos));
        if (storeDown) {
            metrics.counter("wecom.dedup.store.unavailable", new Tag("tier", tier)).inc();
        }
    }

    void breakerState(String tier, BooleanSupplier open) {
        metrics.gauge("wecom.dedup.breaker.open", () -> open.getAsBoolean() ? 1 : 0, new Tag("tier", tier));
    }
}
