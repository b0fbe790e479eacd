package io.wecominbox.ops.replay;

import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.messaging.HandlerQueues;
import io.wecominbox.messaging.TransactedSender;
import io.wecominbox.messaging.TransactedSender.Outgoing;
import io.wecominbox.ops.replay.ReplayPlan.Item;
import io.wecominbox.relay.CallbackLogMessages;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Publishes one chunk of a replay the way the relay publishes callbacks, without XA: the replay's row is
 * locked (a cancel waits for the chunk in flight, and no chunk starts after a cancel), the messages go out in
 * one local JMS transaction, then the progress counter commits. A crash between the two commits re-sends the
 * chunk when the replay is resumed; every message's duplicate id (replay, handler, row) makes the broker drop it.
 */
@ApplicationScoped
public class ReplayPublisher {

    private static final String LOCK = "SELECT state FROM replay_run WHERE replay_id = ? FOR UPDATE";
    private static final String PROGRESS =
        "UPDATE replay_run SET messages_published = messages_published + ? WHERE replay_id = ?";
    private static final String DELIVERIES =
        "SELECT " + CallbackLogMessages.COLUMNS + " FROM callback_log WHERE callback_log_id = ANY (?)";

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Inject
    private TransactedSender sender;

    @Inject
    private HandlerQueues handlerQueues;

    /** Returns false (and sends nothing) when the replay is no longer RUNNING, e.g. cancelled. */
    public boolean publish(long replayId, String batchId, List<Item> chunk) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (!running(c, replayId)) {
                    c.rollback();
                    return false;
                }
                Map<Long, EventEnvelope> deliveries = deliveries(c, chunk);
                List<Outgoing> messages = new ArrayList<>(chunk.size());
                for (Item item : chunk) {
                    EventEnvelope d = deliveries.get(item.callbackLogId());
                    if (d == null) {
                        throw new IllegalStateException("callback_log " + item.callbackLogId()
                            + " vanished during replay " + replayId);
                    }
                    messages.add(new Outgoing(handlerQueues.of(item.handler()),
                        d.replayed(replayId, batchId, item.handler())));
                }
                sender.send(messages);
                try (PreparedStatement progress = c.prepareStatement(PROGRESS)) {
                    progress.setInt(1, chunk.size());
                    progress.setLong(2, replayId);
                    progress.executeUpdate();
                }
                c.commit();
                return true;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("replay " + replayId + " chunk failed (" + e.getSQLState() + ")", e);
        }
    }

    private static boolean running(Connection c, long replayId) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement(LOCK)) {
            lock.setLong(1, replayId);
            try (ResultSet rs = lock.executeQuery()) {
                return rs.next() && ReplayRun.RUNNING.equals(rs.getString(1));
            }
        }
    }

    private static Map<Long, EventEnvelope> deliveries(Connection c, List<Item> chunk) throws SQLException {
        Long[] ids = chunk.stream().map(Item::callbackLogId).distinct().toArray(Long[]::new);
        Map<Long, EventEnvelope> rows = new HashMap<>();
        try (PreparedStatement query = c.prepareStatement(DELIVERIES)) {
            query.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    EventEnvelope row = CallbackLogMessages.read(rs);
                    rows.put(row.callbackLogId(), row);
                }
            }
        }
        return rows;
    }
}
