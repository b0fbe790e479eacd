package io.wecominbox.ops.metrics;

import io.wecominbox.cluster.NodeFigures;
import io.wecominbox.cluster.NodeFiguresSource;
import io.wecominbox.ingest.AckLatencyWindow;
import io.wecominbox.ingest.IngestMetrics;
import io.wecominbox.relay.PublicationRelay;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;

/** The heartbeat's figures from this node's ACK latency window and relay backlog (ops reads the pipeline, cluster does not). */
@ApplicationScoped
public class PipelineNodeFigures implements NodeFiguresSource {

    static final Duration LAST = Duration.ofMinutes(1);

    @Inject
    private IngestMetrics ingest;

    @Inject
    private PublicationRelay relay;

    @Override
    public NodeFigures lastMinute(Instant now) {
        return of(ingest.window(), now, relay.status().backlog());
    }

    /** Sums the window's 10-second slots of the last minute; p95 is the worst slot's (a bound, not a blend). */
    static NodeFigures of(AckLatencyWindow window, Instant now, long relayBacklog) {
        long accepted = 0;
        long failed = 0;
        Double p95 = null;
        Double max = null;
        for (AckLatencyWindow.Bucket bucket : window.series(now.minus(LAST), now, AckLatencyWindow.SLOT)) {
            accepted += bucket.accepted();
            failed += bucket.failed();
            p95 = larger(p95, bucket.p95Ms());
            max = larger(max, bucket.maxMs());
        }
        return new NodeFigures(accepted, failed, p95, max, relayBacklog);
    }

    private static Double larger(Double a, Double b) {
        if (a == null || b == null) { // (a ternary would unbox the null)
            return a == null ? b : a;
        }
        return Math.max(a, b);
    }
}
