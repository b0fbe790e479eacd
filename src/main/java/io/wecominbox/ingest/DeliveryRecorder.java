package io.wecominbox.ingest;

import io.wecominbox.messaging.JndiNames;
import io.wecominbox.messaging.MessageSender;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Topic;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The ACK path's one transaction: a callback_log row and one message to the events topic, committed together
 * by XA (PostgreSQL + Artemis). The caller answers 200 only after this returns, i.e. after the commit.
 */
@ApplicationScoped
public class DeliveryRecorder {

    public static final String OUTCOME_ENQUEUED = "ENQUEUED";

    /** First key of our two-key advisory locks ("WC" + 1), so other lock users' numbers cannot collide. */
    static final int LOCK_NAMESPACE = 0x5743_0001;

    // received_at is taken on arrival, before this lock: two concurrent copies of one event may get their
    // attempt numbers in the other order, hence the gap is clamped at 0 rather than going negative.
    // Serialises deliveries of one key until commit (a prepared XA branch keeps its transaction-level
    // locks until COMMIT PREPARED), so the count below always sees the previous delivery's row.
    private static final String LOCK_KEY = "SELECT pg_advisory_xact_lock(?, hashtext(?))";

    // WeCom gives up after 5 s: a lock we cannot get (an in-doubt branch after a crash holds it until
    // recovery) or a stuck statement must fail fast into a 503 and a later retry, not hang the request.
    private static final String TIMEOUTS = "SET LOCAL lock_timeout = '1500ms'; SET LOCAL statement_timeout = '2500ms'";

    private static final String INSERT = """
            INSERT INTO callback_log (received_at, app, corp_id, agent_id, query_string, raw_body, plaintext,
                msg_type, event_type, change_type, event_key, event_created_at, attempt, seconds_since_previous,
                remote_addr, outcome)
            SELECT ?::timestamptz, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text, ?::timestamptz, count(*) + 1,
                CASE WHEN count(*) > 0  -- greatest() would turn the first delivery's null gap into 0
                    THEN greatest(0, round(extract(epoch FROM ?::timestamptz - max(received_at)), 3)) END, ?, ?
            FROM callback_log WHERE event_key = ?
            RETURNING callback_log_id, attempt, seconds_since_previous
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Resource(lookup = JndiNames.EVENTS_TOPIC)
    private Topic eventsTopic;

    @Inject
    private MessageSender sender;

    @Transactional
    public RecordedDelivery record(OpenedCallback callback, OffsetDateTime receivedAt, String remoteAddr) {
        RecordedDelivery row = insert(callback, receivedAt, remoteAddr);
        sender.send(eventsTopic, callback.plaintext(), messageProperties(callback, row));
        return row;
    }

    private RecordedDelivery insert(OpenedCallback callback, OffsetDateTime receivedAt, String remoteAddr) {
        String key = callback.eventKey();
        try (Connection connection = dataSource.getConnection()) {
            try (Statement timeouts = connection.createStatement()) {
                timeouts.execute(TIMEOUTS);
            }
            try (PreparedStatement lock = connection.prepareStatement(LOCK_KEY)) {
                lock.setInt(1, LOCK_NAMESPACE);
                lock.setString(2, key);
                lock.execute();
            }
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                int i = 0;
                insert.setObject(++i, receivedAt);
                insert.setString(++i, callback.app().name());
                insert.setString(++i, callback.app().corpId());
                insert.setString(++i, callback.agentId());
                insert.setString(++i, callback.query().raw());
                insert.setString(++i, callback.rawBody());
                insert.setString(++i, callback.plaintext());
                insert.setString(++i, callback.event().msgType());
                insert.setString(++i, callback.event().typeName());
                insert.setString(++i, callback.event().changeType());
                insert.setString(++i, key);
                insert.setObject(++i, eventCreatedAt(callback));
                insert.setObject(++i, receivedAt);
                insert.setString(++i, remoteAddr);
                insert.setString(++i, OUTCOME_ENQUEUED);
                insert.setString(++i, key);
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next();
                    return new RecordedDelivery(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3));
                }
            }
        } catch (SQLException e) {
            // Unchecked so that @Transactional rolls back; the exception mapper answers 503 and WeCom retries.
            throw new DeliveryNotRecordedException("callback_log insert failed for app " + callback.app().name(), e);
        }
    }

    private static OffsetDateTime eventCreatedAt(OpenedCallback callback) {
        long seconds = callback.event().createTime();
        return seconds > 0 ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds), ZoneOffset.UTC) : null;
    }

    static Map<String, Object> messageProperties(OpenedCallback callback, RecordedDelivery row) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("app", callback.app().name());
        properties.put("eventType", callback.event().typeName());
        if (callback.event().changeType() != null) {
            properties.put("changeType", callback.event().changeType()); // JMS has no null-valued property
        }
        properties.put("eventKey", callback.eventKey());
        properties.put("callbackLogId", row.callbackLogId());
        properties.put("attempt", row.attempt());
        properties.put("createTime", callback.event().createTime());
        return properties;
    }

    /** The delivery could not be stored; nothing was committed. */
    public static class DeliveryNotRecordedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeliveryNotRecordedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
