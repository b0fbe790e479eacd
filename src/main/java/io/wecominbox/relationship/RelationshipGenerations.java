package io.wecominbox.relationship;

import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.event.EventKeys;
import io.wecominbox.event.PulledContact;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.relationship.GenerationRule.Begin;
import io.wecominbox.relationship.GenerationRule.Decision;
import io.wecominbox.relationship.GenerationRule.End;
import io.wecominbox.relationship.GenerationRule.Stale;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Table external_contact_generation, read and written under a per-relationship advisory lock inside the
 * caller's XA transaction (a consumer's, or a reconcile run's). Whichever handler meets a fact first records
 * it, so contact and crm, callback and pull, in any order or at once, derive the same generation. The lock is
 * transaction-scoped: a prepared XA branch keeps it until COMMIT PREPARED, so the next reader sees the row.
 */
@ApplicationScoped
public class RelationshipGenerations {

    /** First key of our two-key advisory locks ("WC" + 15); the ACK path's (CallbackLogInsert) is "WC" + 1. */
    static final int LOCK_NAMESPACE = 0x5743_0015;

    private static final Set<String> DELETES = Set.of("del_external_contact", "del_follow_user");

    private static final String LOCK = "SELECT pg_advisory_xact_lock(?, hashtext(? || chr(31) || ? || chr(31) || ?))";
    private static final String KNOWN = """
            SELECT generation, added_from, added_until, ended_at FROM external_contact_generation
            WHERE app = ? AND user_id = ? AND external_user_id = ? ORDER BY generation
            """;
    private static final String BEGIN = """
            INSERT INTO external_contact_generation (app, user_id, external_user_id, generation, added_from,
                added_until, ended_at, begun_by, reconcile_run_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;
    private static final String END = """
            UPDATE external_contact_generation SET ended_at = ?
            WHERE app = ? AND user_id = ? AND external_user_id = ? AND generation = ?
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /**
     * For change_external_contact events: adds (callback or pulled) get the relationship-generation key,
     * deletes end their generation and keep their own key, a pulled "gone" ends the current generation under
     * the relationship-gone key (stale when it had ended already), anything else is unchanged.
     *
     * @return the key as {@code {app}:{key}}, like the ingest's event keys
     */
    public RelationshipKey keyFor(String app, WeComEvent e) {
        String changeType = e.changeType();
        if (e.userId() == null || e.externalUserId() == null || changeType == null || e.createTime() == 0) {
            return RelationshipKey.unchanged();
        }
        boolean add = PulledContact.CHANGE_TYPE.equals(changeType);
        if (!add && !DELETES.contains(changeType)) {
            return RelationshipKey.unchanged();
        }
        Instant at = Instant.ofEpochSecond(e.createTime());
        var pulled = PulledContact.of(e);
        try (Connection c = dataSource.getConnection()) {
            lock(c, app, e.userId(), e.externalUserId());
            List<Generation> known = known(c, app, e.userId(), e.externalUserId());
            Decision decision;
            if (pulled.isPresent() && pulled.get().gone()) {
                decision = GenerationRule.gone(known, at);
            } else if (pulled.isPresent()) {
                decision = GenerationRule.pulled(known, at, pulled.get().followCreatedAt());
            } else {
                decision = add ? GenerationRule.callbackAdd(known, at) : GenerationRule.delete(known, at);
            }
            apply(c, app, e.userId(), e.externalUserId(), decision, pulled.isPresent() && !pulled.get().gone()
                ? "RECONCILE" : add ? "CALLBACK" : "DELETE", pulled.map(PulledContact::runId).orElse(null));
            if (decision instanceof Stale) {
                return RelationshipKey.stale();
            }
            if (pulled.isPresent() && pulled.get().gone()) {
                return RelationshipKey.keyed(app + ":" + EventKeys.relationshipGone(e.userId(), e.externalUserId(),
                    decision.generation()));
            }
            return add ? RelationshipKey.keyed(app + ":" + EventKeys.relationshipGeneration(e.userId(),
                e.externalUserId(), decision.generation())) : RelationshipKey.unchanged();
        } catch (SQLException ex) {
            throw DatabaseFailure.of("external_contact_generation", ex);
        }
    }

    /** Serialises everything about one relationship until the caller's transaction ends. */
    public void lock(Connection c, String app, String userId, String externalUserId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOCK)) {
            s.setInt(1, LOCK_NAMESPACE);
            s.setString(2, app);
            s.setString(3, userId);
            s.setString(4, externalUserId);
            s.execute();
        }
    }

    private static List<Generation> known(Connection c, String app, String userId, String externalUserId)
            throws SQLException {
        List<Generation> known = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(KNOWN)) {
            s.setString(1, app);
            s.setString(2, userId);
            s.setString(3, externalUserId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    known.add(new Generation(rs.getInt(1), instant(rs, 2), instant(rs, 3), instant(rs, 4)));
                }
            }
        }
        return known;
    }

    private static void apply(Connection c, String app, String userId, String externalUserId, Decision decision,
                              String begunBy, Long runId) throws SQLException {
        if (decision instanceof Begin b) {
            try (PreparedStatement s = c.prepareStatement(BEGIN)) {
                s.setString(1, app);
                s.setString(2, userId);
                s.setString(3, externalUserId);
                s.setInt(4, b.generation());
                s.setObject(5, utc(b.addedFrom()));
                s.setObject(6, utc(b.addedUntil()));
                s.setObject(7, utc(b.endedAt()));
                s.setString(8, b.endedAt() != null && b.addedFrom() == null ? "DELETE" : begunBy);
                s.setObject(9, runId);
                s.executeUpdate();
            }
        } else if (decision instanceof End end) {
            try (PreparedStatement s = c.prepareStatement(END)) {
                s.setObject(1, utc(end.endedAt()));
                s.setString(2, app);
                s.setString(3, userId);
                s.setString(4, externalUserId);
                s.setInt(5, end.generation());
                s.executeUpdate();
            }
        }
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static OffsetDateTime utc(Instant t) {
        return t == null ? null : OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
    }
}
