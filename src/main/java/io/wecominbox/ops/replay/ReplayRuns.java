package io.wecominbox.ops.replay;

import io.wecominbox.ops.replay.ReplayRun.Outcome;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Table replay_run, and what handler_disposition says about a replay's messages. */
@ApplicationScoped
public class ReplayRuns {

    private static final String INSERT = """
            INSERT INTO replay_run (requested_by, selection, handlers, batch_id, reason, max_rate, state,
                events_selected, messages_total, runner_node, started_at)
            VALUES (?, ?::jsonb, ?, ?, ?, ?, 'RUNNING', ?, ?, ?, now())
            RETURNING replay_id
            """;
    private static final String COLUMNS = """
            SELECT replay_id, state, requested_by, requested_at, selection::text, handlers, batch_id, reason, max_rate,
                events_selected, messages_total, messages_published, started_at, finished_at, failure
            FROM replay_run
            """;
    private static final String OUTCOMES = """
            SELECT handler,
                   count(*) FILTER (WHERE disposition IN ('PROCESSED', 'RETRIED', 'FORCED', 'PROCEEDED_WITHOUT_STORE')),
                   count(*) FILTER (WHERE disposition IN ('DUPLICATE_HOT', 'DUPLICATE_COLD')),
                   count(*) FILTER (WHERE disposition = 'REJECTED_STORE_DOWN')
            FROM handler_disposition WHERE replay_id = ? GROUP BY handler ORDER BY handler
            """;
    private static final String FINISH = """
            UPDATE replay_run SET state = ?, finished_at = now(), failure = ? WHERE replay_id = ? AND state = 'RUNNING'
            """;
    private static final String INTERRUPTED = """
            UPDATE replay_run SET state = 'FAILED', finished_at = now(),
                failure = 'interrupted: the server stopped after ' || messages_published || ' of ' || messages_total
                    || ' messages were published; request it again to finish (already processed events are duplicates'
                    || ' for dedup, also with the same batch id)'
            WHERE state = 'RUNNING' AND runner_node = ?
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    public long insert(String requestedBy, ReplayRequest request, List<String> handlers, int maxRate,
                       ReplayPlan plan, String node) {
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement(INSERT)) {
            int i = 0;
            insert.setString(++i, requestedBy);
            insert.setString(++i, request.selection().toJson().toString());
            insert.setArray(++i, c.createArrayOf("text", handlers.toArray(String[]::new)));
            insert.setString(++i, request.batchId());
            insert.setString(++i, request.reason());
            insert.setInt(++i, maxRate);
            insert.setInt(++i, plan.eventsSelected());
            insert.setInt(++i, plan.items().size());
            insert.setString(++i, node);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("replay_run insert failed (" + e.getSQLState() + ")", e);
        }
    }

    public Optional<ReplayRun> find(long replayId) {
        List<ReplayRun> runs = query(COLUMNS + " WHERE replay_id = ?", replayId);
        return runs.isEmpty() ? Optional.empty() : Optional.of(withOutcomes(runs.get(0)));
    }

    /** The most recent first; outcomes left out (one query per replay is for the single view). */
    public List<ReplayRun> recent(int limit) {
        return query(COLUMNS + " ORDER BY requested_at DESC, replay_id DESC LIMIT ?", limit);
    }

    /** RUNNING → DONE / CANCELLED / FAILED; false when it was no longer running. */
    public boolean finish(long replayId, String state, String failure) {
        try (Connection c = dataSource.getConnection(); PreparedStatement update = c.prepareStatement(FINISH)) {
            update.setString(1, state);
            update.setString(2, failure);
            update.setLong(3, replayId);
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("replay_run update failed (" + e.getSQLState() + ")", e);
        }
    }

    /** At start: this node's replays that were running when it stopped cannot be running any more. */
    public int markInterrupted(String node) {
        try (Connection c = dataSource.getConnection(); PreparedStatement update = c.prepareStatement(INTERRUPTED)) {
            update.setString(1, node);
            return update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("replay_run update failed (" + e.getSQLState() + ")", e);
        }
    }

    /** Stores the per-handler outcomes once they are final (or the wait for them ended). */
    public void storeOutcomes(long replayId, Map<String, Outcome> outcomes) {
        JsonObjectBuilder json = Json.createObjectBuilder();
        outcomes.forEach((handler, o) -> json.add(handler, Json.createObjectBuilder().add("effects", o.effects())
            .add("duplicates", o.duplicates()).add("rejectedAttempts", o.rejectedAttempts())));
        try (Connection c = dataSource.getConnection(); PreparedStatement update = c.prepareStatement(
            "UPDATE replay_run SET outcomes = ?::jsonb, outcomes_at = now() WHERE replay_id = ?")) {
            update.setString(1, json.build().toString());
            update.setLong(2, replayId);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("replay_run update failed (" + e.getSQLState() + ")", e);
        }
    }

    public Map<String, Outcome> outcomes(long replayId) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement query = c.prepareStatement(OUTCOMES)) {
            query.setLong(1, replayId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    outcomes.put(rs.getString(1), new Outcome(rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                }
            }
            return outcomes;
        } catch (SQLException e) {
            throw new IllegalStateException("handler_disposition read failed (" + e.getSQLState() + ")", e);
        }
    }

    static boolean settled(ReplayRun run, Map<String, Outcome> outcomes) {
        long last = outcomes.values().stream().mapToLong(o -> o.effects() + o.duplicates()).sum();
        return !ReplayRun.RUNNING.equals(run.state()) && last >= run.done();
    }

    private ReplayRun withOutcomes(ReplayRun run) {
        Map<String, Outcome> outcomes = outcomes(run.replayId());
        return new ReplayRun(run.replayId(), run.state(), run.requestedBy(), run.requestedAt(), run.selection(),
            run.handlers(), run.batchId(), run.reason(), run.maxRate(), run.eventsSelected(), run.total(), run.done(),
            run.rate(), run.startedAt(), run.finishedAt(), run.failure(), outcomes, settled(run, outcomes));
    }

    private List<ReplayRun> query(String sql, Object parameter) {
        try (Connection c = dataSource.getConnection(); PreparedStatement query = c.prepareStatement(sql)) {
            query.setObject(1, parameter);
            List<ReplayRun> runs = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    runs.add(row(rs));
                }
            }
            return runs;
        } catch (SQLException e) {
            throw new IllegalStateException("replay_run read failed (" + e.getSQLState() + ")", e);
        }
    }

    private static ReplayRun row(ResultSet rs) throws SQLException {
        int i = 0;
        long id = rs.getLong(++i);
        String state = rs.getString(++i);
        String by = rs.getString(++i);
        OffsetDateTime requestedAt = rs.getObject(++i, OffsetDateTime.class);
        JsonObject selection;
        try (JsonReader reader = Json.createReader(new StringReader(rs.getString(++i)))) {
            selection = reader.readObject();
        }
        Array handlerArray = rs.getArray(++i);
        List<String> handlers = Arrays.asList((String[]) handlerArray.getArray());
        String batchId = rs.getString(++i);
        String reason = rs.getString(++i);
        int maxRate = rs.getInt(++i);
        int events = rs.getInt(++i);
        int total = rs.getInt(++i);
        int done = rs.getInt(++i);
        OffsetDateTime startedAt = rs.getObject(++i, OffsetDateTime.class);
        OffsetDateTime finishedAt = rs.getObject(++i, OffsetDateTime.class);
        String failure = rs.getString(++i);
        OffsetDateTime end = finishedAt != null ? finishedAt : OffsetDateTime.now(ZoneOffset.UTC);
        return new ReplayRun(id, state, by, requestedAt, selection, List.copyOf(handlers), batchId, reason, maxRate,
            events, total, done, ReplayRun.rate(done, startedAt, end), startedAt, finishedAt, failure, Map.of(),
            false);
    }
}
