package io.wecominbox.handler.contact;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Table external_contact, one conditional upsert per kind of change. Every statement compares event times
 * (CreateTime), so applying an event twice changes nothing and two events give the same row in either order:
 * <ul>
 *   <li>an add applies unless the row holds a newer add, or a delete at least as new (only a NEWER add brings a
 *       deleted contact back);</li>
 *   <li>an edit never touches a deleted row (a late edit must not resurrect it); on a missing row it records
 *       the contact as added (we missed the add);</li>
 *   <li>a delete applies unless the row holds a newer add; it leaves a tombstone when the row is missing, so a
 *       late edit or an older add still finds it;</li>
 *   <li>a transfer_fail notes the reason, and never changes an existing row's status.</li>
 * </ul>
 */
@ApplicationScoped
public class ExternalContactStore {

    private static final String ADD = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, state, tags, added_at,
                last_event_at, last_callback_log_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                -- same second: 'added' outranks 'half_added', whichever arrives first
                status = CASE WHEN c.deleted_at IS NULL AND c.added_at = EXCLUDED.added_at AND c.status = 'ADDED'
                              THEN c.status ELSE EXCLUDED.status END,
                state = EXCLUDED.state,
                tags = coalesce(EXCLUDED.tags, c.tags),
                added_at = EXCLUDED.added_at,
                deleted_at = NULL,
                delete_source = NULL,
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                last_callback_log_id = EXCLUDED.last_callback_log_id,
                updated_at = now()
            WHERE (c.deleted_at IS NULL AND (c.added_at IS NULL OR c.added_at <= EXCLUDED.added_at))
               OR (c.deleted_at IS NOT NULL AND c.deleted_at < EXCLUDED.added_at)
            """;

    private static final String EDIT = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, tags, edited_at,
                last_event_at, last_callback_log_id)
            VALUES (?, ?, ?, 'ADDED', ?, ?, ?, ?)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                -- an edit shows the relationship exists, also where only a failed transfer was known
                status = CASE WHEN c.status = 'TRANSFER_FAILED' THEN 'ADDED' ELSE c.status END,
                tags = coalesce(EXCLUDED.tags, c.tags),
                edited_at = greatest(c.edited_at, EXCLUDED.edited_at),
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                last_callback_log_id = EXCLUDED.last_callback_log_id,
                updated_at = now()
            WHERE c.deleted_at IS NULL
            """;

    private static final String DELETE = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, deleted_at, delete_source,
                last_event_at, last_callback_log_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                status = CASE WHEN c.deleted_at > EXCLUDED.deleted_at THEN c.status ELSE EXCLUDED.status END,
                delete_source = CASE WHEN c.deleted_at > EXCLUDED.deleted_at THEN c.delete_source
                                     ELSE EXCLUDED.delete_source END,
                deleted_at = greatest(c.deleted_at, EXCLUDED.deleted_at),
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                last_callback_log_id = EXCLUDED.last_callback_log_id,
                updated_at = now()
            WHERE c.added_at IS NULL OR c.added_at <= EXCLUDED.deleted_at
            """;

    private static final String TRANSFER_FAIL = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, transfer_failed_at,
                transfer_fail_reason, last_event_at, last_callback_log_id)
            VALUES (?, ?, ?, 'TRANSFER_FAILED', ?, ?, ?, ?)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                transfer_fail_reason = CASE WHEN c.transfer_failed_at > EXCLUDED.transfer_failed_at
                                            THEN c.transfer_fail_reason ELSE EXCLUDED.transfer_fail_reason END,
                transfer_failed_at = greatest(c.transfer_failed_at, EXCLUDED.transfer_failed_at),
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                last_callback_log_id = EXCLUDED.last_callback_log_id,
                updated_at = now()
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** Returns true when the row changed (false: an older or repeated event). */
    public boolean added(ContactChange change, String status, String state) {
        return update(ADD, change.key(), status, state, change.tags(), utc(change.at()), utc(change.at()),
            change.callbackLogId());
    }

    public boolean edited(ContactChange change) {
        return update(EDIT, change.key(), change.tags(), utc(change.at()), utc(change.at()), change.callbackLogId());
    }

    public boolean deleted(ContactChange change, String status, String source) {
        return update(DELETE, change.key(), status, utc(change.at()), source, utc(change.at()),
            change.callbackLogId());
    }

    public boolean transferFailed(ContactChange change, String reason) {
        return update(TRANSFER_FAIL, change.key(), utc(change.at()), reason, utc(change.at()), change.callbackLogId());
    }

    private boolean update(String sql, ContactKey key, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            int i = 0;
            s.setString(++i, key.app());
            s.setString(++i, key.userId());
            s.setString(++i, key.externalUserId());
            for (Object value : values) {
                s.setObject(++i, value);
            }
            return s.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("external_contact write failed", e);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** One relationship. */
    public record ContactKey(String app, String userId, String externalUserId) {
    }

    /** One event about a relationship: when it happened, from which delivery, with tags if it carried any. */
    public record ContactChange(ContactKey key, Instant at, long callbackLogId, String tags) {
    }
}
