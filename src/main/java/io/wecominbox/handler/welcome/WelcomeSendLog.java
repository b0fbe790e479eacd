package io.wecominbox.handler.welcome;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** Table welcome_send_log, written in the consumer's XA transaction (with the dedup record). */
@ApplicationScoped
public class WelcomeSendLog {

    private static final String FIND = "SELECT welcome_code, status FROM welcome_send_log WHERE welcome_code = ANY (?)";

    // DO NOTHING: the dedup record already makes this one run per event; a second row for a code could only
    // come from a deliberate re-run, which the handler answers from the first row without calling WeCom.
    private static final String INSERT = """
            INSERT INTO welcome_send_log (welcome_code, app, user_id, external_user_id, state, change_type,
                callback_log_id, event_key, event_created_at, deadline_at, attempt_count, status, errcode, errmsg,
                effect_unknown, text_key, sent_at, latency_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (welcome_code) DO NOTHING
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** The recorded outcome of each of these codes that has one. */
    public Map<String, String> statusesOf(List<String> welcomeCodes) {
        if (welcomeCodes.isEmpty()) {
            return Map.of();
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement find = c.prepareStatement(FIND)) {
            find.setArray(1, c.createArrayOf("text", welcomeCodes.toArray()));
            Map<String, String> statuses = new HashMap<>();
            try (ResultSet rs = find.executeQuery()) {
                while (rs.next()) {
                    statuses.put(rs.getString(1), rs.getString(2));
                }
            }
            return statuses;
        } catch (SQLException e) {
            throw new IllegalStateException("welcome_send_log read failed", e);
        }
    }

    /** Writes the outcomes of a batch in one JDBC batch. */
    public void recordAll(List<Row> rows) {
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement(INSERT)) {
            for (Row row : rows) {
                bind(insert, row.welcome(), row.result());
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("welcome_send_log write failed for a batch of " + rows.size(), e);
        }
    }

    private static void bind(PreparedStatement insert, WelcomeCase w, WelcomeResult r) throws SQLException {
        int i = 0;
        insert.setString(++i, w.welcomeCode());
        insert.setString(++i, w.app());
        insert.setString(++i, w.userId());
        insert.setString(++i, w.externalUserId());
        insert.setString(++i, w.state());
        insert.setString(++i, w.changeType());
        insert.setLong(++i, w.callbackLogId());
        insert.setString(++i, w.eventKey());
        insert.setObject(++i, utc(w.createdAt()));
        insert.setObject(++i, utc(w.deadline()));
        insert.setInt(++i, w.attempt());
        insert.setString(++i, r.status().name());
        if (r.errcode() == null) {
            insert.setNull(++i, Types.INTEGER);
        } else {
            insert.setInt(++i, r.errcode());
        }
        insert.setString(++i, r.errmsg());
        insert.setBoolean(++i, r.effectUnknown());
        insert.setString(++i, r.textKey());
        if (r.sentAt() == null) {
            insert.setNull(++i, Types.TIMESTAMP_WITH_TIMEZONE);
            insert.setNull(++i, Types.BIGINT);
        } else {
            insert.setObject(++i, utc(r.sentAt()));
            insert.setLong(++i, r.sentAt().toEpochMilli() - w.createdAt().toEpochMilli());
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * What the event says about the welcome: which code, whose, from which delivery, and its window.
     *
     * @param attempt JMSXDeliveryCount of this delivery plus the attempts made in place before it (the row keeps
     *                the one that commits)
     */
    public record WelcomeCase(String welcomeCode, String app, String userId, String externalUserId, String state,
                              String changeType, long callbackLogId, String eventKey, Instant createdAt,
                              Instant deadline, int attempt) {

        /** The same welcome, tried once more inside the same delivery. */
        public WelcomeCase nextAttempt() {
            return new WelcomeCase(welcomeCode, app, userId, externalUserId, state, changeType, callbackLogId, eventKey,
                createdAt, deadline, attempt + 1);
        }
    }

    /** One welcome_send_log row: the welcome and how it ended. */
    public record Row(WelcomeCase welcome, WelcomeResult result) {
    }

    /**
     * How it ended.
     *
     * @param errcode       WeCom's errcode of the last call; null when no answer was read
     * @param effectUnknown the last call may have been performed although we did not learn so
     * @param textKey       the config key of the text sent (or tried)
     * @param sentAt        when WeCom answered errcode 0; null unless SENT
     */
    public record WelcomeResult(WelcomeStatus status, Integer errcode, String errmsg, boolean effectUnknown,
                                String textKey, Instant sentAt) {
    }
}
