package io.wecominbox.ops.dashboard;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The dashboard's reads of callback_log and callback_rejection. Each is bounded by a time range on an
 * indexed column and a row limit, runs outside any transaction and gives up after a few seconds: a slow
 * dashboard must never hold connections the ACK path needs.
 */
@ApplicationScoped
public class DashboardQueries {

    private static final int TIMEOUT_SECONDS = 5;

    // callback_log_received_at_idx: a range scan of the window, grouped into epoch-aligned buckets
    private static final String INGEST = """
            SELECT extract(epoch FROM date_bin(make_interval(secs => ?), received_at, TIMESTAMPTZ 'epoch'))::bigint,
                   count(*), count(*) FILTER (WHERE attempt > 1)
            FROM callback_log WHERE received_at >= ? GROUP BY 1 ORDER BY 1
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

    // callback_rejection's primary key starts with hour_bucket
    private static final String REJECTIONS = """
            SELECT hour_bucket, app, reason, rejection_count, last_seen, last_remote_addr, sample
            FROM callback_rejection WHERE hour_bucket >= date_trunc('hour', now()) - make_interval(hours => ?)
            ORDER BY last_seen DESC LIMIT ?
            """;

    // welcome_send_log_pkey read backwards: the latest outcomes, whatever their age
    private static final String WELCOMES = """
            SELECT recorded_at, app, welcome_code, status, latency_ms, errcode, attempt_count
            FROM welcome_send_log ORDER BY welcome_send_id DESC LIMIT ?
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** Bucket start (epoch seconds) → {deliveries, retries}. */
    public Map<Long, long[]> ingest(Instant from, long stepSeconds) throws SQLException {
        Map<Long, long[]> buckets = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement q = c.prepareStatement(INGEST)) {
            q.setQueryTimeout(TIMEOUT_SECONDS);
            q.setLong(1, stepSeconds);
            q.setObject(2, OffsetDateTime.ofInstant(from, java.time.ZoneOffset.UTC));
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    buckets.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
        }
        return buckets;
    }

    public List<KeyTimeline> timeline(Instant from, int keys) throws SQLException {
        Map<String, KeyTimeline> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement q = c.prepareStatement(TIMELINE)) {
            q.setQueryTimeout(TIMEOUT_SECONDS);
            q.setObject(1, OffsetDateTime.ofInstant(from, java.time.ZoneOffset.UTC));
            q.setInt(2, keys);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    KeyTimeline key = out.computeIfAbsent(rs.getString(1),
                            k -> new KeyTimeline(k, rs(rs, 2), rs(rs, 3), new ArrayList<>()));
                    BigDecimal gap = rs.getBigDecimal(6);
                    key.deliveries().add(new Delivery(rs.getInt(4), rs.getObject(5, OffsetDateTime.class).toInstant(),
                            rs.getBigDecimal(7).doubleValue(), gap == null ? null : gap.doubleValue()));
                }
            }
        }
        return new ArrayList<>(out.values());
    }

    public List<RejectionRow> rejections(int hours, int limit) throws SQLException {
        List<RejectionRow> rows = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement q = c.prepareStatement(REJECTIONS)) {
            q.setQueryTimeout(TIMEOUT_SECONDS);
            q.setInt(1, hours);
            q.setInt(2, limit);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    rows.add(new RejectionRow(rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getString(2),
                            rs.getString(3), rs.getLong(4), rs.getObject(5, OffsetDateTime.class).toInstant(),
                            rs.getString(6), rs.getString(7)));
                }
            }
        }
        return rows;
    }

    public List<WelcomeSendRow> welcomes(int limit) throws SQLException {
        List<WelcomeSendRow> rows = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement q = c.prepareStatement(WELCOMES)) {
            q.setQueryTimeout(TIMEOUT_SECONDS);
            q.setInt(1, limit);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    rows.add(new WelcomeSendRow(rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getString(2),
                            shortCode(rs.getString(3)), rs.getString(4), (Long) rs.getObject(5),
                            (Integer) rs.getObject(6), rs.getInt(7)));
                }
            }
        }
        return rows;
    }

    /** A WelcomeCode is no secret, but a screen only needs enough of it to find the row: head…tail. */
    static String shortCode(String code) {
        if (code == null || code.length() <= 12) {
            return code;
        }
        return code.substring(0, 6) + "…" + code.substring(code.length() - 4);
    }

    private static String rs(ResultSet rs, int column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every delivery of one event key; offsets in seconds from its first delivery. */
    public record KeyTimeline(String eventKey, String app, String eventType, List<Delivery> deliveries) {
    }

    public record Delivery(int attempt, Instant receivedAt, double offsetSeconds, Double secondsSincePrevious) {
    }

    /** One welcome outcome; latencyMs (CreateTime → WeCom accepted) and errcode may be null. */
    public record WelcomeSendRow(Instant recordedAt, String app, String code, String status, Long latencyMs,
                                 Integer errcode, int attempts) {
    }

    public record RejectionRow(Instant hour, String app, String reason, long count, Instant lastSeen,
                               String lastRemoteAddr, String sample) {
    }
}
