package io.wecominbox.ingest;

import io.wecominbox.ingest.AckLatencyWindow.Outcome;
import io.wecominbox.metrics.MetricHandles;
import io.wecominbox.metrics.MetricLabels;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Timer;

/**
 * What the callback endpoint reports about each request: a delivery counter by app, event type, outcome and
 * reason, and the time to the answer (the ACK WeCom waits at most 5 s for). Labels are names only, never an
 * event key, token or remote address. Called on the ACK path, so it only bumps in-memory counters.
 */
@ApplicationScoped
public class IngestMetrics {

    public static final String DELIVERIES = "wecom.deliveries";
    public static final String ACK = "wecom.callback.ack";

    private static final Metadata DELIVERIES_META = Metadata.builder().withName(DELIVERIES)
            .withDescription("Callback requests by app, event type, outcome (accepted, rejected, failed) and reason").build();
    private static final Metadata ACK_META = Metadata.builder().withName(ACK).withUnit(MetricUnits.SECONDS)
            .withDescription("Time from receiving a callback POST to answering it, by app and outcome").build();

    private final MetricLabels eventTypes = new MetricLabels(100);
    private final MetricLabels apps = new MetricLabels(50);
    private final AckLatencyWindow window = new AckLatencyWindow();

    @Inject
    private MetricRegistry registry;

    @Inject
    private Clock clock;

    private MetricHandles<Counter> deliveries;
    private MetricHandles<Timer> acks;

    @PostConstruct
    void init() {
        deliveries = new MetricHandles<>(tags -> registry.counter(DELIVERIES_META, tags),
            "app", "event_type", "outcome", "reason");
        acks = new MetricHandles<>(tags -> registry.timer(ACK_META, tags), "app", "outcome");
    }

    /** Stored and published: WeCom got "success". */
    public void accepted(String app, String eventType, long nanos) {
        count(app, eventTypes.of(eventType), "accepted", MetricLabels.NONE);
        time(app, Outcome.ACCEPTED, nanos);
    }

    /** Refused with a 4xx (or 503 for a misconfigured app); {@code app} is a configured name or "?". */
    public void rejected(String app, String reasonCode, boolean post, long nanos) {
        count(app, "unknown", "rejected", reasonCode);
        if (post) {
            time(app, Outcome.REJECTED, nanos);
        } else {
            window.record(Outcome.REJECTED, nanos, clock.instant());
        }
    }

    /** Our failure (database or broker down): answered 503 so that WeCom retries. */
    public void failed(String app, long nanos) {
        count(app, "unknown", "failed", "unavailable");
        time(app, Outcome.FAILED, nanos);
    }

    /** This node's recent answers in time buckets, for the dashboard. */
    public AckLatencyWindow window() {
        return window;
    }

    private void count(String app, String eventType, String outcome, String reason) {
        deliveries.of(apps.of(app), eventType, outcome, reason).inc();
    }

    private void time(String app, Outcome outcome, long nanos) {
        acks.of(apps.of(app), outcome.label()).update(Duration.ofNanos(nanos));
        window.record(outcome, nanos, clock.instant());
    }
}
