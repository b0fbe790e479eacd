package io.wecominbox.callbacklog;

import io.wecominbox.messaging.EventEnvelope;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** A callback_log row as its event message: the columns to select, and the envelope they make. */
final class EventMessages {

    /** Select these, in this order, for {@link #read}. */
    static final String COLUMNS =
        "callback_log_id, attempt, app, event_type, change_type, event_key, event_created_at, plaintext, received_at";

    private EventMessages() {
    }

    static EventEnvelope read(ResultSet rs) throws SQLException {
        OffsetDateTime created = rs.getObject(7, OffsetDateTime.class);
        return EventEnvelope.ofCallback(rs.getLong(1), rs.getObject(9, OffsetDateTime.class).toInstant(), rs.getInt(2),
            rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
            created == null ? 0 : created.toEpochSecond(), rs.getString(8));
    }
}
