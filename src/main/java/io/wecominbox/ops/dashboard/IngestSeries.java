package io.wecominbox.ops.dashboard;

import io.wecominbox.callbacklog.CallbackLogStatistics.IngestBucket;
import io.wecominbox.ingest.AckLatencyWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ingest chart's data: deliveries and retries per bucket from callback_log (every node, survives
 * restarts) beside this node's rejected / failed answers and ACK latency from memory.
 */
public record IngestSeries(Instant from, Instant to, long stepSeconds, List<Point> points,
                           Map<String, RetryRateView> retryRate) {

    public record Point(Instant at, long deliveries, long retries, long rejected, long failed, Double ackP50Ms,
                        Double ackP95Ms, Double ackMaxMs) {
    }

    public record RetryRateView(long deliveries, long eventKeys, double ratio) {
    }

    /** Seconds per bucket so that a window is about 90 bars, in whole 10-second slots. */
    static long stepFor(int minutes) {
        long raw = (long) Math.ceil(minutes * 60 / 90.0);
        return Math.max(10, (raw + 9) / 10 * 10);
    }

    static List<Point> merge(Map<Long, IngestBucket> database, List<AckLatencyWindow.Bucket> memory) {
        List<Point> points = new ArrayList<>(memory.size());
        for (AckLatencyWindow.Bucket b : memory) {
            IngestBucket db = database.getOrDefault(b.at().getEpochSecond(), new IngestBucket(0, 0));
            points.add(new Point(b.at(), db.deliveries(), db.retries(), b.rejected(), b.failed(), b.p50Ms(), b.p95Ms(),
                b.maxMs()));
        }
        return points;
    }
}
