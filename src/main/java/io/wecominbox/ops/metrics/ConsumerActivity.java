package io.wecominbox.ops.metrics;

import io.wecominbox.dedup.ConsumerMetrics;
import io.wecominbox.metrics.MetricHandles;
import io.wecominbox.metrics.MetricLabels;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/** {@link ConsumerMetrics} into MicroProfile Metrics, plus the in-memory totals the dashboard shows. */
@ApplicationScoped
public class ConsumerActivity implements ConsumerMetrics {

    public static final String DISPOSITIONS = "wecom.handler.dispositions";
    public static final String CLEANUP_RUNS = "wecom.cleanup.runs";

    private static final Metadata DISPOSITIONS_META = Metadata.builder().withName(DISPOSITIONS)
            .withDescription("Messages a handler finished, by handler and disposition").build();
    private static final Metadata CLEANUP_META = Metadata.builder().withName(CLEANUP_RUNS)
            .withDescription("Runs of a dedup cleanup job, by job and result").build();

    private final MetricLabels handlers = new MetricLabels(100);
    private final MetricLabels dispositions = new MetricLabels(30);
    private final MetricLabels jobs = new MetricLabels(30);
    private final Map<String, Map<String, AtomicLong>> totals = new ConcurrentHashMap<>();
    private final Map<String, CleanupRun> cleanups = new ConcurrentHashMap<>();

    @Inject
    private MetricRegistry registry;

    @Inject
    private Clock clock;

    private MetricHandles<Counter> dispositionCounters;

    @PostConstruct
    void init() {
        dispositionCounters = new MetricHandles<>(tags -> registry.counter(DISPOSITIONS_META, tags),
            "handler", "disposition");
    }

    @Override
    public void disposition(String handler, String disposition) {
        String h = handlers.of(handler);
        String d = dispositions.of(disposition);
        dispositionCounters.of(h, d).inc();
        totals.computeIfAbsent(h, k -> new ConcurrentHashMap<>()).computeIfAbsent(d, k -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void cleanupFinished(String job, long rowsRemoved, Duration took) {
        String j = jobs.of(job);
        registry.counter(CLEANUP_META, new Tag("job", j), new Tag("result", "ok")).inc();
        cleanups.put(j, new CleanupRun(j, clock.instant(), true, rowsRemoved, took == null ? 0 : took.toMillis(), null));
    }

    @Override
    public void cleanupFailed(String job, String reason) {
        String j = jobs.of(job);
        registry.counter(CLEANUP_META, new Tag("job", j), new Tag("result", "failed")).inc();
        cleanups.put(j, new CleanupRun(j, clock.instant(), false, 0, 0, reason));
    }

    /** handler → disposition → count since this node started, sorted for display. */
    public Map<String, Map<String, Long>> dispositions() {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        totals.forEach((h, byDisposition) -> {
            Map<String, Long> counts = new TreeMap<>();
            byDisposition.forEach((d, n) -> counts.put(d, n.get()));
            out.put(h, counts);
        });
        return out;
    }

    /** The latest run of each cleanup job. */
    public Map<String, CleanupRun> cleanups() {
        return new TreeMap<>(cleanups);
    }

    /** One run of a cleanup job; {@code error} is null when it worked. */
    public record CleanupRun(String job, Instant finishedAt, boolean ok, long rowsRemoved, long tookMillis,
                             String error) {
    }
}
