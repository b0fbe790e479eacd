package io.wecominbox.cluster;

import io.wecominbox.ingest.AckLatencyWindow;
import java.time.Duration;
import java.time.Instant;

/** What a node reports of its last minute in its heartbeat. */
public record NodeFigures(long accepted, long failed, Double ackP95Ms, Double ackMaxMs, long relayBacklog) {

    static final Duration LAST = Duration.ofMinutes(1);

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
