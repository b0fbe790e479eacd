package io.wecominbox.handler.contact;

import io.wecominbox.event.PulledContact;
import io.wecominbox.relationship.GenerationRule;
import io.wecominbox.relationship.HeldRelationships;
import io.wecominbox.relationship.Relationship;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

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
 *   <li>a transfer_fail notes the reason, and never changes an existing row's status;</li>
 *   <li>a reconcile pull's record creates a missing row or revives one deleted before its page was fetched,
 *       and a complete pass's "gone" ends a current row it did not list (status GONE); both name their run.</li>
 * </ul>
 * Rows are {@link ExternalContact}; every write is a native statement through the EntityManager, in the
 * caller's transaction (the consumer's, or a reconcile page's): upserts, which JPA's own insert or merge
 * cannot do without a conflict aborting the PostgreSQL transaction.
 */
@ApplicationScoped
public class ExternalContactStore implements HeldRelationships {

    private static final String ADD = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, state, tags, added_at,
                last_event_at, last_callback_log_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
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
            VALUES (?1, ?2, ?3, 'ADDED', ?4, ?5, ?6, ?7)
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
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
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
            VALUES (?1, ?2, ?3, 'TRANSFER_FAILED', ?4, ?5, ?6, ?7)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                transfer_fail_reason = CASE WHEN c.transfer_failed_at > EXCLUDED.transfer_failed_at
                                            THEN c.transfer_fail_reason ELSE EXCLUDED.transfer_fail_reason END,
                transfer_failed_at = greatest(c.transfer_failed_at, EXCLUDED.transfer_failed_at),
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                last_callback_log_id = EXCLUDED.last_callback_log_id,
                updated_at = now()
            """;

    // A pulled record says the relationship existed when its page was fetched (CreateTime). It brings back a
    // row deleted before then and fills a missing one; a current row is left alone (a callback knew it). Its
    // add time is follow_info.createtime (the FIRST add), or just after the delete it follows, so a late add
    // callback (newer) still applies its State and a late copy of that delete (older) does not.
    private static final String RECONCILED_ADD = """
            INSERT INTO external_contact AS c (app, user_id, external_user_id, status, state, added_at,
                last_event_at, reconcile_run_id, last_seen_run_id, last_seen_at)
            VALUES (?1, ?2, ?3, 'ADDED', ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (app, user_id, external_user_id) DO UPDATE SET
                status = 'ADDED',
                state = EXCLUDED.state,
                added_at = CASE WHEN c.deleted_at IS NULL THEN EXCLUDED.added_at
                                ELSE greatest(EXCLUDED.added_at, c.deleted_at + interval '1 second') END,
                deleted_at = NULL,
                delete_source = NULL,
                last_event_at = greatest(c.last_event_at, EXCLUDED.last_event_at),
                reconcile_run_id = EXCLUDED.reconcile_run_id,
                last_seen_run_id = EXCLUDED.last_seen_run_id,
                last_seen_at = EXCLUDED.last_seen_at,
                updated_at = now()
            WHERE (c.added_at IS NULL AND c.deleted_at IS NULL)
               OR (c.deleted_at IS NOT NULL AND c.deleted_at < EXCLUDED.last_event_at)
            """;

    // What a complete reconcile pass did not list: ended as of the pass's start, if still current and known
    // from before it (an add newer than the start may simply be missing from a page fetched earlier).
    private static final String GONE = """
            WITH target AS (SELECT CAST(?1 AS text) AS app, CAST(?2 AS text) AS user_id, CAST(?3 AS text) AS external_user_id,
                                   CAST(?4 AS timestamptz) AS known_before, CAST(?5 AS bigint) AS run_id, CAST(?6 AS timestamptz) AS ended_at)
            UPDATE external_contact c SET status = 'GONE', deleted_at = t.ended_at, delete_source = NULL,
                last_event_at = greatest(c.last_event_at, t.ended_at), reconcile_run_id = t.run_id, updated_at = now()
            FROM target t
            WHERE c.app = t.app AND c.user_id = t.user_id AND c.external_user_id = t.external_user_id
              AND c.deleted_at IS NULL AND c.added_at IS NOT NULL AND c.added_at < t.known_before
              AND c.last_seen_run_id IS DISTINCT FROM t.run_id
            """;

    private static final String SEEN = """
            UPDATE external_contact SET last_seen_run_id = ?1, last_seen_at = ?2
            WHERE app = ?3 AND user_id = ?4 AND external_user_id = ?5 AND deleted_at IS NULL AND added_at IS NOT NULL
            """;

    private static final String GONE_CANDIDATES = """
            SELECT user_id, external_user_id FROM external_contact
            WHERE app = ? AND user_id = ANY (?) AND deleted_at IS NULL AND added_at IS NOT NULL AND added_at < ?
              AND last_seen_run_id IS DISTINCT FROM ?
            ORDER BY user_id, external_user_id
            """;

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

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

    /** A pulled record; true when it created or revived the row (false: the row was already current). */
    public boolean addedByReconcile(PulledContact pulled, String app) {
        Instant from = pulled.followCreatedAt() == null || pulled.followCreatedAt().isAfter(pulled.observedAt())
            ? pulled.observedAt() : pulled.followCreatedAt();
        return update(RECONCILED_ADD, new Relationship(app, pulled.userId(), pulled.externalUserId()),
            blankToNull(pulled.state()), utc(from), utc(pulled.observedAt()), pulled.runId(), pulled.runId(),
            utc(pulled.observedAt()));
    }

    @Override
    public boolean seen(Relationship key, long runId, Instant at) {
        return em.createNativeQuery(SEEN).setParameter(1, runId).setParameter(2, utc(at))
            .setParameter(3, key.app()).setParameter(4, key.userId()).setParameter(5, key.externalUserId())
            .executeUpdate() == 1;
    }

    @Override
    public List<Relationship> unlisted(Connection c, String app, List<String> members, Instant knownBefore, long runId)
            throws SQLException {
        List<Relationship> keys = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(GONE_CANDIDATES)) {
            s.setString(1, app);
            s.setArray(2, c.createArrayOf("text", members.toArray()));
            s.setObject(3, utc(knownBefore));
            s.setLong(4, runId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    keys.add(new Relationship(app, rs.getString(1), rs.getString(2)));
                }
            }
        }
        return keys;
    }

    /**
     * A complete pass did not list the relationship: GONE as of the pass's start, unless it changed since
     * the pass chose it (re-added, listed, deleted by a callback). True when it was marked.
     */
    public boolean goneByReconcile(PulledContact gone, String app) {
        Instant knownBefore = gone.observedAt().minus(GenerationRule.CLOCK_SKEW_MARGIN);
        return update(GONE, new Relationship(app, gone.userId(), gone.externalUserId()), utc(knownBefore),
            gone.runId(), utc(gone.observedAt()));
    }

    // the key first (?1-?3), then the statement's own values
    private boolean update(String sql, Relationship key, Object... values) {
        Query upsert = em.createNativeQuery(sql).setParameter(1, key.app()).setParameter(2, key.userId())
            .setParameter(3, key.externalUserId());
        for (int i = 0; i < values.length; i++) {
            upsert.setParameter(4 + i, values[i]);
        }
        return upsert.executeUpdate() == 1;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** One event about a relationship: when it happened, from which delivery, with tags if it carried any. */
    public record ContactChange(Relationship key, Instant at, long callbackLogId, String tags) {
    }
}
