package io.wecominbox.ops.metrics;

import io.wecominbox.callbacklog.CallbackLogStatistics.AppBucket;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The last hour of callback_log per app in 30-second buckets, so that the retry-rate gauge reads only the rows
 * since its last refresh: the whole hour read every 30 s grows with the traffic (1.8 million deliveries an hour
 * at 500 events/s). A read replaces the buckets it covered; buckets before the hour fall out. Not thread-safe:
 * only the gauge's refresh touches it, and its scheduler runs one refresh at a time.
 */
final class RetryRateWindow {

    static final long BUCKET_SECONDS = 30;
    static final Duration WINDOW = Duration.ofHours(1);

    /** Deliveries and first deliveries of one app. */
    record Volume(long deliveries, long firstDeliveries) {

        static final Volume NONE = new Volume(0, 0);

        Volume plus(Volume other) {
            return new Volume(deliveries + other.deliveries, firstDeliveries + other.firstDeliveries);
        }
    }

    // bucket start (epoch second) -> app -> volume
    private final NavigableMap<Long, Map<String, Volume>> buckets = new TreeMap<>();

    /** The start of the bucket holding {@code at}: a read from there covers whole buckets only. */
    static Instant bucketStart(Instant at) {
        return Instant.ofEpochSecond(Math.floorDiv(at.getEpochSecond(), BUCKET_SECONDS) * BUCKET_SECONDS);
    }

    /**
     * Replaces every bucket from {@code from} (a bucket start) with what a read from there returned, and forgets
     * the buckets before the hour that ends {@code now}.
     */
    void replaceFrom(Instant from, List<AppBucket> read, Instant now) {
        buckets.tailMap(from.getEpochSecond(), true).clear();
        for (AppBucket b : read) {
            buckets.computeIfAbsent(b.bucketStartEpochSecond(), start -> new HashMap<>())
                .merge(b.app(), new Volume(b.deliveries(), b.firstDeliveries()), Volume::plus);
        }
        buckets.headMap(firstBucket(now), false).clear();
    }

    /** Per app, the volume of the buckets from the one holding {@code now} minus an hour. */
    Map<String, Volume> lastHour(Instant now) {
        Map<String, Volume> totals = new HashMap<>();
        buckets.tailMap(firstBucket(now), true).values()
            .forEach(apps -> apps.forEach((app, v) -> totals.merge(app, v, Volume::plus)));
        return totals;
    }

    private static long firstBucket(Instant now) {
        return bucketStart(now.minus(WINDOW)).getEpochSecond();
    }
}
