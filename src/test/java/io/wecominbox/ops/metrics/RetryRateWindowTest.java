package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wecominbox.callbacklog.CallbackLogStatistics.AppBucket;
import io.wecominbox.ops.metrics.RetryRateWindow.Volume;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryRateWindowTest {

    private static final Instant NOW = Instant.parse("2026-12-06T10:00:10Z");
    private static final long T = RetryRateWindow.bucketStart(NOW).getEpochSecond();

    private final RetryRateWindow window = new RetryRateWindow();

    @Test
    void bucketStartIsTheThirtySecondBoundaryAtOrBeforeTheInstant() {
        assertEquals(Instant.parse("2026-12-06T10:00:00Z"), RetryRateWindow.bucketStart(NOW));
        assertEquals(Instant.parse("2026-12-06T10:00:30Z"),
            RetryRateWindow.bucketStart(Instant.parse("2026-12-06T10:00:30Z")));
    }

    @Test
    void aReadReplacesTheBucketsItCoversAndKeepsTheOlderOnes() {
        window.replaceFrom(at(T - 90), List.of(bucket("a", T - 90, 10, 8), bucket("a", T - 60, 10, 9),
            bucket("a", T - 30, 4, 4)), NOW);
        // a later read from T - 30: the bucket it re-read has grown, a new one begins
        window.replaceFrom(at(T - 30), List.of(bucket("a", T - 30, 6, 5), bucket("a", T, 2, 2)), NOW);

        assertEquals(Map.of("a", new Volume(28, 24)), window.lastHour(NOW));
    }

    @Test
    void aBucketMissingFromTheReadIsGoneNotKept() {
        window.replaceFrom(at(T - 60), List.of(bucket("a", T - 60, 5, 5), bucket("a", T - 30, 5, 5)), NOW);
        window.replaceFrom(at(T - 60), List.of(bucket("a", T - 60, 5, 5)), NOW);

        assertEquals(Map.of("a", new Volume(5, 5)), window.lastHour(NOW));
    }

    @Test
    void bucketsBeforeTheHourFallOutAndAppsAreCountedApart() {
        long hourAgo = RetryRateWindow.bucketStart(NOW.minus(RetryRateWindow.WINDOW)).getEpochSecond();
        window.replaceFrom(at(hourAgo - 30), List.of(bucket("a", hourAgo - 30, 100, 1), bucket("a", hourAgo, 3, 2),
            bucket("b", hourAgo, 7, 7), bucket("b", T, 1, 0)), NOW);

        assertEquals(Map.of("a", new Volume(3, 2), "b", new Volume(8, 7)), window.lastHour(NOW));
        // an hour later nothing of it is left
        assertEquals(Map.of(), window.lastHour(NOW.plus(RetryRateWindow.WINDOW).plusSeconds(30)));
    }

    private static AppBucket bucket(String app, long start, long deliveries, long first) {
        return new AppBucket(app, start, deliveries, first);
    }

    private static Instant at(long epochSecond) {
        return Instant.ofEpochSecond(epochSecond);
    }
}
