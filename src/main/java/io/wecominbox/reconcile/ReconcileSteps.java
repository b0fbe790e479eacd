package io.wecominbox.reconcile;

import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.event.PulledContact;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.messaging.BackgroundMessageSender;
import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.messaging.HandlerQueues;
import io.wecominbox.reconcile.ReconcileRun.Progress;
import io.wecominbox.reconcile.ReconcileRuns.Step;
import io.wecominbox.relationship.GenerationRule;
import io.wecominbox.relationship.HeldRelationships;
import io.wecominbox.relationship.Relationship;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The transactions of a pass, each one XA transaction with the run's progress row: committing a page (its
 * known relationships marked seen, its new ones published to the relationship-keyed handlers' queues and
 * recorded in reconcile_found) and publishing unlisted relationships as gone. The run's row is locked first and
 * must still be owned by this node at the progress it expects, so a page is never committed twice.
 */
@ApplicationScoped
public class ReconcileSteps {

    private static final String FOUND = """
            INSERT INTO reconcile_found (run_id, app, user_id, external_user_id, follow_created_at, state, observed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    ReconcileRuns runs;

    @Inject
    HeldRelationships contacts;

    @Inject
    HandlerCatalog handlers;

    @Inject
    BackgroundMessageSender sender;

    @Inject
    private HandlerQueues handlerQueues;

    /** Stores the member list fetched at the start; false when the run is no longer ours. */
    @Transactional
    public boolean members(Owner owner, List<String> members, int apiCalls, int errors) {
        try (Connection c = dataSource.getConnection()) {
            if (runs.lockOwned(c, owner.runId(), owner.node()).isEmpty()) {
                return false;
            }
            runs.advance(c, owner.runId(), new Step(members, 0, null, 0, apiCalls, errors, 0, 0, 0, 0), owner.lease());
            return true;
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile members step", e);
        }
    }

    /**
     * Commits one page fetched at {@code chunkIndex} / {@code cursor}; returns its counts, or null when the run
     * is no longer ours or has moved on (nothing is written then).
     */
    @Transactional
    public PageCounts page(Owner owner, String corpId, int chunkIndex, String cursor, PulledPage page,
                           Instant observedAt, int apiCalls, int errors) {
        try (Connection c = dataSource.getConnection()) {
            Progress progress = runs.lockOwned(c, owner.runId(), owner.node()).orElse(null);
            if (progress == null || progress.chunkIndex() != chunkIndex || !Objects.equals(progress.cursor(), cursor)) {
                return null;
            }
            int found = 0;
            int known = 0;
            List<EventHandler> targets = handlers.handlers().stream().filter(EventHandler::keyedByRelationship).toList();
            for (PulledPage.Record r : page.records()) {
                Relationship key = new Relationship(owner.app(), r.userId(), r.externalUserId());
                if (contacts.seen(key, owner.runId(), observedAt)) {
                    known++;
                } else if (recordFound(c, owner, r, observedAt)) {
                    EventEnvelope message = PulledEventMessage.of(owner.app(), new PulledContact(corpId,
                        r.userId(), r.externalUserId(), r.state(), observedAt, r.followCreatedAt(), owner.runId(), false));
                    for (EventHandler handler : targets) {
                        sender.send(handlerQueues.of(handler.name()), message.body(), message.properties());
                    }
                    found++;
                } else {
                    known++; // listed twice in one pass (a chunk paged again after a cursor was refused)
                }
            }
            boolean lastPage = page.nextCursor() == null;
            runs.advance(c, owner.runId(), new Step(null, lastPage ? chunkIndex + 1 : chunkIndex,
                lastPage ? null : page.nextCursor(), 1, apiCalls, errors, page.records().size(), found, known, 0),
                owner.lease());
            return new PageCounts(page.records().size(), found, known);
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile page", e);
        }
    }

    /** Restarts the current chunk from its first page (WeCom refused the stored cursor). */
    @Transactional
    public boolean restartChunk(Owner owner, int chunkIndex, int apiCalls, int errors) {
        try (Connection c = dataSource.getConnection()) {
            Progress progress = runs.lockOwned(c, owner.runId(), owner.node()).orElse(null);
            if (progress == null || progress.chunkIndex() != chunkIndex) {
                return false;
            }
            runs.advance(c, owner.runId(), new Step(null, chunkIndex, null, 0, apiCalls, errors, 0, 0, 0, 0),
                owner.lease());
            return true;
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile restart step", e);
        }
    }

    /** Current relationships of the pass's members known before it started that none of its pages listed. */
    public List<Relationship> unlisted(Owner owner, List<String> members, Instant startedAt) {
        try (Connection c = dataSource.getConnection()) {
            return contacts.unlisted(c, owner.app(), members, knownBefore(startedAt), owner.runId());
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile gone query", e);
        }
    }

    /**
     * Publishes a batch of unlisted relationships as gone (del_follow_user events of this run, ended as of
     * its start) to the relationship-keyed handlers, with the run's count, in one XA transaction: the contact
     * handler marks each GONE unless it changed meanwhile, the crm tells the CRM once per generation.
     * Returns how many were published, or -1 when the run is no longer ours.
     */
    @Transactional
    public int gone(Owner owner, String corpId, List<Relationship> batch, Instant startedAt) {
        try (Connection c = dataSource.getConnection()) {
            Progress p = runs.lockOwned(c, owner.runId(), owner.node()).orElse(null);
            if (p == null) {
                return -1;
            }
            List<EventHandler> targets = handlers.handlers().stream().filter(EventHandler::keyedByRelationship).toList();
            Instant endedAt = Instant.ofEpochSecond(startedAt.getEpochSecond());
            for (Relationship key : batch) {
                EventEnvelope message = PulledEventMessage.of(owner.app(), new PulledContact(corpId, key.userId(),
                    key.externalUserId(), null, endedAt, null, owner.runId(), true));
                for (EventHandler handler : targets) {
                    sender.send(handlerQueues.of(handler.name()), message.body(), message.properties());
                }
            }
            runs.advance(c, owner.runId(), new Step(null, p.chunkIndex(), p.cursor(), 0, 0, 0, 0, 0, 0, batch.size()),
                owner.lease());
            return batch.size();
        } catch (SQLException e) {
            throw DatabaseFailure.of("reconcile gone step", e);
        }
    }

    // WeCom stamps adds with its clock: an add within the margin before the start may be missing from a page
    private static Instant knownBefore(Instant startedAt) {
        return startedAt.minus(GenerationRule.CLOCK_SKEW_MARGIN);
    }

    private static boolean recordFound(Connection c, Owner owner, PulledPage.Record r, Instant observedAt)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(FOUND)) {
            s.setLong(1, owner.runId());
            s.setString(2, owner.app());
            s.setString(3, r.userId());
            s.setString(4, r.externalUserId());
            s.setObject(5, r.followCreatedAt() == null ? null : OffsetDateTime.ofInstant(r.followCreatedAt(),
                ZoneOffset.UTC));
            s.setString(6, r.state());
            s.setObject(7, OffsetDateTime.ofInstant(observedAt, ZoneOffset.UTC));
            return s.executeUpdate() == 1;
        }
    }

    /** Who runs which pass, with the lease each committed step renews. */
    public record Owner(long runId, String app, String node, java.time.Duration lease) {
    }

    /** What one page came to. */
    public record PageCounts(int seen, int found, int known) {
    }
}
