package io.wecominbox.callbacklog;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What callback_log says about the traffic, for the dashboard, the retry-rate gauge and the retry-span diagnosis.
 * Each read is bounded by a time range on an indexed column and gives up after the caller's timeout: a slow
 * screen must never hold connections the ACK path needs.
 */
public final class CallbackLogStatistics {

    // callback_log_received_at_idx: a range scan from a moment, grouped by app and epoch-aligned bucket. An
    // event's first delivery (attempt 1, numbered under the key's lock, so once per key) counts its key, where
    // count(DISTINCT event_key) would sort all the keys, on disk past work_mem; the others are retries.
    private static final String BY_APP_AND_BUCKET = """
            SELECT app, extract(epoch FROM date_bin(make_interval(secs => ?), received_at, TIMESTAMPTZ 'epoch'))::bigint,
                   count(*), count(*) FILTER (WHERE attempt = 1)
            FROM callback_log WHERE received_at >= ? GROUP BY 1, 2
            """;

    // the most recent keys of the window, retried ones first; then every delivery of those keys through
    // callback_log_event_key_idx (at most 20 each), with its offset from the key's first delivery
    private static final String TIMELINE = """
            WITH recent AS (
                SELECT event_key, max(received_at) AS last_at, count(*) > 1 AS retried
                FROM callback_log WHERE received_at >= ?
                GROUP BY event_key ORDER BY retried DESC, last_at DESC LIMIT ?)
            SELECT l.event_key, l.app, l.event_type, l.attempt, l.received_at, l.seconds_since_previous,
                   extract(epoch FROM l.received_at - min(l.received_at) OVER (PARTITION BY l.event_key))
            FROM recent r JOIN callback_log l ON l.event_key = r.event_key AND l.attempt <= 20
            ORDER BY r.retried DESC, r.last_at DESC, l.event_key, l.received_at
            """;

    // The view callback_retry_span (V30) groups all of callback_log, so a time filter on its aggregates would read
    // the whole table: the keys come from an index range scan of the period's retries (attempt > 1) instead, and
    // each key's span from the view through a LATERAL subquery whose event_key condition PostgreSQL pushes into the
    // view (callback_log_event_key_idx). OFFSET 0 keeps the planner from flattening it into a join against the
    // whole grouped table (checked with EXPLAIN on 200k rows: 18 ms instead of 220 ms for an hour). A key whose
    // first delivery lies before the period counts with its whole span.
    private static final String SPANS = """
            WITH retried AS (
                SELECT DISTINCT event_key FROM callback_log
                WHERE received_at >= ? AND attempt > 1 %s)
            SELECT count(*),
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY s.span_seconds),
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY s.span_seconds),
                   max(s.span_seconds)
            FROM retried r
            CROSS JOIN LATERAL (SELECT v.span_seconds FROM callback_retry_span v WHERE v.event_key = r.event_key
                                OFFSET 0) s
            """;

    private static final String VOLUME = """
            SELECT count(*), count(*) FILTER (WHERE attempt = 1)
            FROM callback_log WHERE received_at >= ? %s
            """;

    private static final String BY_APP = "AND app = ?";

    private CallbackLogStatistics() {
    }

    /** One app's deliveries received in one bucket, and how many of them were an event's first (attempt 1). */
    public record AppBucket(String app, long bucketStartEpochSecond, long deliveries, long firstDeliveries) {

        public long retries() {
            return deliveries - firstDeliveries;
        }
    }

    /** Per app and {@code stepSeconds} bucket (aligned on the epoch), the deliveries received since {@code from}. */
    public static List<AppBucket> byAppAndBucket(Connection c, Instant from, long stepSeconds, int timeoutSeconds)
            throws SQLException {
        List<AppBucket> buckets = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement(BY_APP_AND_BUCKET)) {
            query.setQueryTimeout(timeoutSeconds);
            query.setLong(1, stepSeconds);
            query.setObject(2, utc(from));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    buckets.add(new AppBucket(rows.getString(1), rows.getLong(2), rows.getLong(3), rows.getLong(4)));
                }
            }
        }
        return buckets;
    }

    /** Deliveries and retries in one bucket of an ingest series. */
    public record IngestBucket(long deliveries, long retries) {
    }

    /** Bucket start (epoch seconds, aligned on {@code stepSeconds}) → its deliveries since {@code from}, in order. */
    public static Map<Long, IngestBucket> ingest(Connection c, Instant from, long stepSeconds, int timeoutSeconds)
            throws SQLException {
        Map<Long, IngestBucket> buckets = new TreeMap<>();
        for (AppBucket b : byAppAndBucket(c, from, stepSeconds, timeoutSeconds)) {
            buckets.merge(b.bucketStartEpochSecond(), new IngestBucket(b.deliveries(), b.retries()),
                (x, y) -> new IngestBucket(x.deliveries() + y.deliveries(), x.retries() + y.retries()));
        }
        return buckets;
    }

    /** Every delivery of one event key; offsets in seconds from its first delivery. */
    public record KeyTimeline(String eventKey, String app, String eventType, List<Delivery> deliveries) {

        public record Delivery(int attempt, Instant receivedAt, double offsetSeconds, Double secondsSincePrevious) {
        }
    }

    /** The {@code keys} most recent event keys since {@code from}, retried ones first, with their deliveries. */
    public static List<KeyTimeline> timelines(Connection c, Instant from, int keys, int timeoutSeconds)
            throws SQLException {
        Map<String, KeyTimeline> out = new LinkedHashMap<>();
        try (PreparedStatement q = c.prepareStatement(TIMELINE)) {
            q.setQueryTimeout(timeoutSeconds);
            q.setObject(1, utc(from));
            q.setInt(2, keys);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(1);
                    KeyTimeline timeline = out.get(key);
                    if (timeline == null) {
                        timeline = new KeyTimeline(key, rs.getString(2), rs.getString(3), new ArrayList<>());
                        out.put(key, timeline);
                    }
                    BigDecimal gap = rs.getBigDecimal(6);
                    timeline.deliveries().add(new KeyTimeline.Delivery(rs.getInt(4),
                        rs.getObject(5, OffsetDateTime.class).toInstant(), rs.getBigDecimal(7).doubleValue(),
                        gap == null ? null : gap.doubleValue()));
                }
            }
        }
        return new ArrayList<>(out.values());
    }

    /**
     * Repeats since a moment: deliveries, first deliveries (attempt 1), the event keys repeated, and the spans
     * from their first to their last delivery (seconds; null when nothing repeated).
     */
    public record Repeats(long deliveries, long newEvents, long repeatedEvents, Double p50SpanSeconds,
                          Double p99SpanSeconds, Double maxSpanSeconds) {
    }

    /** {@code app} null: every app. */
    public static Repeats repeatsSince(Connection c, Instant since, String app, int timeoutSeconds)
            throws SQLException {
        try (PreparedStatement spans = c.prepareStatement(SPANS.formatted(app == null ? "" : BY_APP));
             PreparedStatement volume = c.prepareStatement(VOLUME.formatted(app == null ? "" : BY_APP))) {
            bind(spans, since, app, timeoutSeconds);
            bind(volume, since, app, timeoutSeconds);
            long deliveries;
            long newEvents;
            try (ResultSet rs = volume.executeQuery()) {
                rs.next();
                deliveries = rs.getLong(1);
                newEvents = rs.getLong(2);
            }
            try (ResultSet rs = spans.executeQuery()) {
                rs.next();
                return new Repeats(deliveries, newEvents, rs.getLong(1), seconds(rs, 2), seconds(rs, 3),
                    seconds(rs, 4));
            }
        }
    }

    private static void bind(PreparedStatement statement, Instant since, String app, int timeoutSeconds)
            throws SQLException {
        statement.setQueryTimeout(timeoutSeconds);
        statement.setObject(1, utc(since));
        if (app != null) {
            statement.setString(2, app);
        }
    }

    private static Double seconds(ResultSet rs, int column) throws SQLException {
        double value = rs.getDouble(column);
        return rs.wasNull() ? null : value;
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
