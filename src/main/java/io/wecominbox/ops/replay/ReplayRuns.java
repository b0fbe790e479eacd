package io.wecominbox.ops.replay;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.ops.replay.ReplayRun.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Table replay_run ({@link ReplayRunEntry}) through the EntityManager, and what handler_disposition says about
 * a replay's messages. Each write is its own transaction unless the caller has one.
 */
@ApplicationScoped
public class ReplayRuns {

    // native: selection is jsonb and handlers text[], which JPA's insert would bind as plain strings
    private static final String INSERT = """
            INSERT INTO replay_run (requested_by, selection, handlers, batch_id, reason, max_rate, state,
                events_selected, messages_total, runner_node, started_at)
            VALUES (?1, CAST(?2 AS jsonb), CAST(?3 AS text[]), ?4, ?5, ?6, 'RUNNING', ?7, ?8, ?9, now())
            RETURNING replay_id
            """;
    private static final String OUTCOMES = """
            SELECT handler,
                   count(*) FILTER (WHERE disposition IN ('PROCESSED', 'RETRIED', 'FORCED', 'PROCEEDED_WITHOUT_STORE')),
                   count(*) FILTER (WHERE disposition IN ('DUPLICATE_HOT', 'DUPLICATE_COLD')),
                   count(*) FILTER (WHERE disposition = 'REJECTED_STORE_DOWN')
            FROM handler_disposition WHERE replay_id = ?1 GROUP BY handler ORDER BY handler
            """;
    private static final String FINISH = """
            UPDATE ReplayRunEntry r SET r.state = :state, r.finishedAt = CURRENT_TIMESTAMP, r.failure = :failure
            WHERE r.replayId = :id AND r.state = 'RUNNING'
            """;
    private static final String INTERRUPTED = """
            UPDATE replay_run SET state = 'FAILED', finished_at = now(),
                failure = 'interrupted: the server stopped after ' || messages_published || ' of ' || messages_total
                    || ' messages were published; request it again to finish (already processed events are duplicates'
                    || ' for dedup, also with the same batch id)'
            WHERE state = 'RUNNING' AND runner_node = ?1
            """;
    private static final String STORE_OUTCOMES =
        "UPDATE replay_run SET outcomes = CAST(?1 AS jsonb), outcomes_at = now() WHERE replay_id = ?2";

    // Outside a JTA transaction Liberty scopes the persistence context to the request's (or the replay
    // task's) local transaction: without a refresh, a read after a finish would return the row as first read.
    private static final String REFRESH = "eclipselink.refresh";

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    @Transactional
    public long insert(String requestedBy, ReplayRequest request, List<String> handlers, int maxRate,
                       ReplayPlan plan, String node) {
        // handler names are [a-z0-9-] (EventHandler.name), so the array literal needs no quoting
        Object id = em.createNativeQuery(INSERT)
            .setParameter(1, requestedBy)
            .setParameter(2, request.selectionJson().toString())
            .setParameter(3, "{" + String.join(",", handlers) + "}")
            .setParameter(4, request.batchId())
            .setParameter(5, request.reason())
            .setParameter(6, maxRate)
            .setParameter(7, plan.eventsSelected())
            .setParameter(8, plan.items().size())
            .setParameter(9, node)
            .getSingleResult();
        return ((Number) id).longValue();
    }

    public Optional<ReplayRun> find(long replayId) {
        List<ReplayRunEntry> found = em.createQuery("SELECT r FROM ReplayRunEntry r WHERE r.replayId = :id",
            ReplayRunEntry.class).setParameter("id", replayId).setHint(REFRESH, "true").getResultList();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ReplayRunEntry run = found.get(0);
        Map<String, Outcome> outcomes = outcomes(replayId);
        ReplayRun view = run.view(outcomes, false);
        return Optional.of(run.view(outcomes, settled(view, outcomes)));
    }

    /** The most recent first; outcomes left out (one query per replay is for the single view). */
    public List<ReplayRun> recent(int limit) {
        return em.createQuery("SELECT r FROM ReplayRunEntry r ORDER BY r.requestedAt DESC, r.replayId DESC",
                ReplayRunEntry.class).setHint(REFRESH, "true").setMaxResults(limit).getResultList().stream()
            .map(r -> r.view(Map.of(), false)).toList();
    }

    /** RUNNING → DONE / CANCELLED / FAILED; false when it was no longer running. */
    @Transactional
    public boolean finish(long replayId, String state, String failure) {
        return em.createQuery(FINISH).setParameter("state", state).setParameter("failure", failure)
            .setParameter("id", replayId).executeUpdate() == 1;
    }

    /** At start: this node's replays that were running when it stopped cannot be running any more. */
    @Transactional
    public int markInterrupted(String node) {
        return em.createNativeQuery(INTERRUPTED).setParameter(1, node).executeUpdate();
    }

    /** Stores the per-handler outcomes once they are final (or the wait for them ended). */
    @Transactional
    public void storeOutcomes(long replayId, Map<String, Outcome> outcomes) {
        JsonObjectBuilder json = JSON.createObjectBuilder();
        outcomes.forEach((handler, o) -> json.add(handler, JSON.createObjectBuilder().add("effects", o.effects())
            .add("duplicates", o.duplicates()).add("rejectedAttempts", o.rejectedAttempts())));
        em.createNativeQuery(STORE_OUTCOMES).setParameter(1, json.build().toString()).setParameter(2, replayId)
            .executeUpdate();
    }

    public Map<String, Outcome> outcomes(long replayId) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery(OUTCOMES).setParameter(1, replayId).getResultList();
        for (Object[] row : rows) {
            outcomes.put((String) row[0], new Outcome(((Number) row[1]).longValue(), ((Number) row[2]).longValue(),
                ((Number) row[3]).longValue()));
        }
        return outcomes;
    }

    static boolean settled(ReplayRun run, Map<String, Outcome> outcomes) {
        long last = outcomes.values().stream().mapToLong(o -> o.effects() + o.duplicates()).sum();
        return !ReplayRun.RUNNING.equals(run.state()) && last >= run.done();
    }
}
