package io.wecominbox.dedup;

import io.wecominbox.metrics.MetricHandles;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Per tier (hot, cold): how long a claim took, how often the store was unavailable, and whether its
 * circuit breaker is open right now. The tier is the only label: never a key.
 */
@ApplicationScoped
public class StoreMetrics {

    @Inject
    MetricRegistry metrics;

    private MetricHandles<Timer> latency;
    private MetricHandles<Counter> unavailable;

    @PostConstruct
    void init() {
        latency = new MetricHandles<>(tags -> metrics.timer("wecom.dedup.store.latency", tags), "tier");
        unavailable = new MetricHandles<>(tags -> metrics.counter("wecom.dedup.store.unavailable", tags), "tier");
    }

    void claimed(String tier, long startedNanos, boolean storeDown) {
        latency.of(tier).update(Duration.ofNanos(System.nanoTime() - startedNanos));
        if (storeDown) {
            unavailable.of(tier).inc();
        }
    }

    void breakerState(String tier, BooleanSupplier open) {
        metrics.gauge("wecom.dedup.breaker.open", () -> open.getAsBoolean() ? 1 : 0, new Tag("tier", tier));
    }
}
