package io.wecominbox.ops.replay;

import io.wecominbox.messaging.BackgroundMessageSender;
import io.wecominbox.messaging.HandlerQueues;
import io.wecominbox.ops.replay.ReplayPlan.Item;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Publishes one chunk of a replay: the messages to the handlers' queues and the progress counter commit
 * together (XA), so "done" never counts a message that was not sent, nor misses one that was. The replay's
 * row is locked first: a cancel waits for the chunk in flight, and no chunk starts after a cancel.
 */
@ApplicationScoped
public class ReplayPublisher {

    /** JMS property naming the replay_run; the handler's disposition records it (handler_disposition.replay_id). */
    public static final String REPLAY_ID = "replayId";
    /** JMS property of a forced re-run, the same the handlers read (EventMessage.BATCH_ID). */
    public static final String BATCH_ID = "batchId";

    private static final String DELIVERIES = """
            SELECT callback_log_id, app, event_type, change_type, event_key, attempt, event_created_at, plaintext
            FROM callback_log WHERE callback_log_id = ANY (?)
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    @Inject
    private BackgroundMessageSender sender;

    @Inject
    private HandlerQueues handlerQueues;

    /** Returns false (and sends nothing) when the replay is no longer RUNNING, e.g. cancelled. */
    @Transactional
    public boolean publish(long replayId, String batchId, List<Item> chunk) {
        // SELECT ... FOR UPDATE: a cancel waits for this chunk, and no chunk starts after one
        ReplayRunEntry run = em.find(ReplayRunEntry.class, replayId, LockModeType.PESSIMISTIC_WRITE);
        if (run == null || !run.running()) {
            return false;
        }
        try (Connection c = dataSource.getConnection()) {
            Map<Long, Delivery> deliveries = deliveries(c, chunk);
            for (Item item : chunk) {
                Delivery d = deliveries.get(item.callbackLogId());
                if (d == null) {
                    throw new IllegalStateException("callback_log " + item.callbackLogId() + " vanished during replay "
                        + replayId);
                }
                sender.send(handlerQueues.of(item.handler()), d.plaintext(), d.properties(replayId, batchId));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("replay " + replayId + " chunk failed (" + e.getSQLState() + ")", e);
        }
        run.published(chunk.size()); // written at the commit, with the sends
        return true;
    }

    private static Map<Long, Delivery> deliveries(Connection c, List<Item> chunk) throws SQLException {
        Long[] ids = chunk.stream().map(Item::callbackLogId).distinct().toArray(Long[]::new);
        Map<Long, Delivery> rows = new HashMap<>();
        try (PreparedStatement query = c.prepareStatement(DELIVERIES)) {
            query.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    OffsetDateTime created = rs.getObject(7, OffsetDateTime.class);
                    rows.put(rs.getLong(1), new Delivery(rs.getLong(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getInt(6), created == null ? 0 : created.toEpochSecond(),
                        rs.getString(8)));
                }
            }
        }
        return rows;
    }

    /** A callback_log row, as the ingest published it. */
    private record Delivery(long callbackLogId, String app, String eventType, String changeType, String eventKey,
                            int attempt, long createTime, String plaintext) {

        // the same properties as DeliveryRecorder.messageProperties, plus the replay's own
        Map<String, Object> properties(long replayId, String batchId) {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("app", app);
            properties.put("eventType", eventType);
            if (changeType != null) {
                properties.put("changeType", changeType);
            }
            properties.put("eventKey", eventKey);
            properties.put("callbackLogId", callbackLogId);
            properties.put("attempt", attempt);
            properties.put("createTime", createTime);
            properties.put(REPLAY_ID, replayId);
            if (batchId != null) {
                properties.put(BATCH_ID, batchId);
            }
            return properties;
        }
    }
}
