package io.wecominbox.ops.dashboard;

import io.wecominbox.callbacklog.CallbackLogStatistics;
import io.wecominbox.callbacklog.CallbackLogStatistics.IngestBucket;
import io.wecominbox.callbacklog.CallbackLogStatistics.KeyTimeline;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The dashboard's reads: callback_log's (through its repository), callback_rejection's and welcome_send_log's.
 * Each is bounded by a time range on an indexed column and a row limit, runs outside any transaction and gives up
 * after a few seconds: a slow dashboard must never hold connections the ACK path needs.
 */
@ApplicationScoped
public class DashboardQueries {

    private static final int TIMEOUT_SECONDS = 5;

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

    /** Bucket start (epoch seconds) → its deliveries and retries since {@code from}. */
    public Map<Long, IngestBucket> ingest(Instant from, long stepSeconds) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return CallbackLogStatistics.ingest(c, from, stepSeconds, TIMEOUT_SECONDS);
        }
    }

    public List<KeyTimeline> timeline(Instant from, int keys) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return CallbackLogStatistics.timelines(c, from, keys, TIMEOUT_SECONDS);
        }
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

    /** One welcome outcome; latencyMs (CreateTime → WeCom accepted) and errcode may be null. */
    public record WelcomeSendRow(Instant recordedAt, String app, String code, String status, Long latencyMs,
                                 Integer errcode, int attempts) {
    }

    public record RejectionRow(Instant hour, String app, String reason, long count, Instant lastSeen,
                               String lastRemoteAddr, String sample) {
    }
}
