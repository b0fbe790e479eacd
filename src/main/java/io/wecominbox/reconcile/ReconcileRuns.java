package io.wecominbox.reconcile;

import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.reconcile.ReconcileRun.Progress;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Table reconcile_run: read through {@link ReconcileRunEntry}, written by native statements. A pass belongs to the node named in runner_node while its lease lasts; every write of
 * a pass's progress checks that it still does ({@link #lockOwned}), so two nodes can never both page one run.
 */
@ApplicationScoped
public class ReconcileRuns {

    // ON CONFLICT on the partial unique index: a second RUNNING pass of the app is simply not started
    private static final String INSERT = """
            INSERT INTO reconcile_run (app, trigger, requested_by, state, runner_node, lease_until)
            VALUES (?, ?, ?, 'RUNNING', ?, now() + ? * interval '1 second')
            ON CONFLICT (app) WHERE state = 'RUNNING' DO NOTHING RETURNING run_id
            """;
    private static final String CLAIM = """
            UPDATE reconcile_run SET runner_node = ?, lease_until = now() + ? * interval '1 second',
                resumes = resumes + 1
            WHERE state = 'RUNNING' AND (lease_until < now() OR runner_node = ?) AND NOT (run_id = ANY (?))
            RETURNING run_id
            """;
    private static final String LOCK_OWNED = """
            SELECT members, chunk_index, page_cursor, started_at FROM reconcile_run
            WHERE run_id = ? AND state = 'RUNNING' AND runner_node = ? FOR UPDATE
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    // reads only (ReconcileRunEntry); outside a transaction each read sees the row as committed now
    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    /** A new RUNNING pass owned by {@code node}, or empty when the app already has one. */
    public Optional<Long> start(String app, String trigger, String requestedBy, String node, Duration lease) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(INSERT)) {
            s.setString(1, app);
            s.setString(2, trigger);
            s.setString(3, requestedBy);
            s.setString(4, node);
            s.setLong(5, lease.toSeconds());
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile_run insert", e);
        }
    }

    /**
     * RUNNING passes this node may resume: its own (it restarted) and any whose lease has expired, except
     * those it is running right now ({@code active}).
     */
    public List<Long> claimResumable(String node, Duration lease, java.util.Collection<Long> active) {
        List<Long> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(CLAIM)) {
            s.setString(1, node);
            s.setLong(2, lease.toSeconds());
            s.setString(3, node);
            s.setArray(4, c.createArrayOf("bigint", active.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile_run claim", e);
        }
        return ids;
    }

    /**
     * Locks the run for the caller's transaction if {@code node} still owns it; empty when it does not (the
     * lease passed to another node, or the run was cancelled).
     */
    Optional<Progress> lockOwned(Connection c, long runId, String node) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LOCK_OWNED)) {
            s.setLong(1, runId);
            s.setString(2, node);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(progress(rs)) : Optional.empty();
            }
        }
    }

    // columns members, chunk_index, page_cursor, started_at
    private static Progress progress(ResultSet rs) throws SQLException {
        Array members = rs.getArray(1);
        return new Progress(members == null ? null : Arrays.asList((String[]) members.getArray()), rs.getInt(2),
            rs.getString(3), rs.getObject(4, OffsetDateTime.class));
    }

    /** Progress of the owner, in the caller's transaction (after {@link #lockOwned}); renews the lease. */
    void advance(Connection c, long runId, Step step, Duration lease) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                UPDATE reconcile_run SET members = coalesce(?, members), chunk_index = ?, page_cursor = ?,
                    pages = pages + ?, api_calls = api_calls + ?, errors = errors + ?, records_seen = records_seen + ?,
                    records_new = records_new + ?, records_known = records_known + ?, marked_gone = marked_gone + ?,
                    lease_until = now() + ? * interval '1 second'
                WHERE run_id = ?
                """)) {
            int i = 0;
            s.setArray(++i, step.members() == null ? null : c.createArrayOf("text", step.members().toArray()));
            s.setInt(++i, step.chunkIndex());
            s.setString(++i, step.cursor());
            s.setInt(++i, step.pages());
            s.setInt(++i, step.apiCalls());
            s.setInt(++i, step.errors());
            s.setInt(++i, step.seen());
            s.setInt(++i, step.found());
            s.setInt(++i, step.known());
            s.setInt(++i, step.gone());
            s.setLong(++i, lease.toSeconds());
            s.setLong(++i, runId);
            s.executeUpdate();
        }
    }

    /** Counts API calls and errors between pages (a failed call commits nothing else); renews the lease. */
    public void countCalls(long runId, String node, int calls, int errors, Duration lease) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement("""
                UPDATE reconcile_run SET api_calls = api_calls + ?, errors = errors + ?,
                    lease_until = now() + ? * interval '1 second'
                WHERE run_id = ? AND state = 'RUNNING' AND runner_node = ?
                """)) {
            s.setInt(1, calls);
            s.setInt(2, errors);
            s.setLong(3, lease.toSeconds());
            s.setLong(4, runId);
            s.setString(5, node);
            s.executeUpdate();
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile_run update", e);
        }
    }

    /** RUNNING → the final state; false when it was not RUNNING (or not ours, when node is given). */
    public boolean finish(long runId, String state, String reason, String node) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement("""
                UPDATE reconcile_run SET state = ?, stop_reason = left(?, 500), finished_at = now()
                WHERE run_id = ? AND state = 'RUNNING' AND (?::text IS NULL OR runner_node = ?)
                """)) {
            s.setString(1, state);
            s.setString(2, reason);
            s.setLong(3, runId);
            s.setString(4, node);
            s.setString(5, node);
            return s.executeUpdate() == 1;
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile_run finish", e);
        }
    }

    /** Where a run stands (no lock), to start or resume paging it. */
    public Optional<Progress> progress(long runId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
            "SELECT members, chunk_index, page_cursor, started_at FROM reconcile_run WHERE run_id = ?")) {
            s.setLong(1, runId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(progress(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile_run query", e);
        }
    }

    public Optional<ReconcileRun> find(long runId) {
        return Optional.ofNullable(em.find(ReconcileRunEntry.class, runId)).map(ReconcileRunEntry::view);
    }

    public List<ReconcileRun> recent(int limit) {
        return em.createQuery("SELECT r FROM ReconcileRunEntry r ORDER BY r.startedAt DESC, r.runId DESC",
                ReconcileRunEntry.class).setMaxResults(limit).getResultList().stream().map(ReconcileRunEntry::view)
            .toList();
    }

    /** What one committed step adds to a run's progress; members only on the step that fetched them. */
    record Step(List<String> members, int chunkIndex, String cursor, int pages, int apiCalls, int errors, int seen,
                int found, int known, int gone) {
    }
}
