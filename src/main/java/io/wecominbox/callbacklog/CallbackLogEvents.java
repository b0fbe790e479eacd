package io.wecominbox.callbacklog;

import io.wecominbox.messaging.EventEnvelope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** callback_log read again for a replay: each selected event's first delivery, and rows as their messages. */
public final class CallbackLogEvents {

    // Retries of one event are one event: the distinct keys of the matched deliveries, each from its first
    // delivery (its lowest callback_log_id), whichever of its deliveries the filter matched.
    private static final String FIRST_DELIVERIES = """
            SELECT DISTINCT ON (c.event_key) c.callback_log_id, c.event_key, c.event_type, c.received_at,
                c.content_erased_at IS NOT NULL
            FROM callback_log c
            WHERE c.event_key IN (SELECT s.event_key FROM callback_log s WHERE %s)
            ORDER BY c.event_key, c.callback_log_id
            LIMIT ?
            """;

    private static final String BY_ID =
        "SELECT " + EventMessages.COLUMNS + " FROM callback_log WHERE callback_log_id = ANY (?)";

    private CallbackLogEvents() {
    }

    /**
     * One event's first delivery.
     *
     * @param contentErased the retention job erased its content (docs/dba.md, "Retention"): nothing left to replay
     */
    public record FirstDelivery(long callbackLogId, String eventKey, String eventType, OffsetDateTime receivedAt,
                                boolean contentErased) {
    }

    /** The first delivery of each event that has a delivery {@code filter} matches, at most {@code limit}. */
    public static List<FirstDelivery> firstDeliveries(Connection c, DeliveryFilter filter, int limit)
            throws SQLException {
        DeliveryFilter.Condition condition = filter.condition("s");
        try (PreparedStatement query = c.prepareStatement(FIRST_DELIVERIES.formatted(condition.sql()))) {
            int i = 0;
            for (Object parameter : condition.parameters()) {
                if (parameter instanceof String[] strings) {
                    query.setArray(++i, c.createArrayOf("text", strings));
                } else if (parameter instanceof Long[] ids) {
                    query.setArray(++i, c.createArrayOf("bigint", ids));
                } else {
                    query.setObject(++i, parameter);
                }
            }
            query.setInt(++i, limit);
            List<FirstDelivery> events = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    events.add(new FirstDelivery(rs.getLong(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, OffsetDateTime.class), rs.getBoolean(5)));
                }
            }
            return events;
        }
    }

    /** The rows of these ids as their event messages, by id; an id without a row is absent. */
    public static Map<Long, EventEnvelope> messages(Connection c, Long[] ids) throws SQLException {
        Map<Long, EventEnvelope> rows = new HashMap<>();
        try (PreparedStatement query = c.prepareStatement(BY_ID)) {
            query.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    EventEnvelope row = EventMessages.read(rs);
                    rows.put(row.callbackLogId(), row);
                }
            }
        }
        return rows;
    }
}
