package io.wecominbox.callbacklog;

import io.wecominbox.db.ResultSets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Inserts a group of deliveries into callback_log on the caller's connection in one round trip, its keys' locks
 * and then one insert statement (the caller commits). Attempt numbers and the gap to the previous delivery count
 * the rows already committed and the earlier ones of the same key in this group, so a retry that arrives with its
 * twin in one commit is still attempt 2.
 */
public final class CallbackLogInsert {

    /** First key of our two-key advisory locks ("WC" + 1), so other lock users' numbers cannot collide. */
    public static final int LOCK_NAMESPACE = 0x5743_0001;

    // A lock we cannot get (another node's commit of the same key stuck) or a stuck statement must fail fast
    // into a 503 and a later retry, not hold the whole group past WeCom's 5 s.
    private static final String TIMEOUTS = "SET LOCAL lock_timeout = '1500ms'; SET LOCAL statement_timeout = '2500ms'";

    // Serialises commits that hold the same key (other writers, other nodes) so the count below always sees
    // the previous delivery's row. Taken in hash order: two groups sharing keys cannot deadlock.
    private static final String LOCK_KEYS = """
            SELECT pg_advisory_xact_lock(?, h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(?::text[]) AS k
            ORDER BY h) AS keys
            """;

    static final String OUTCOME_ENQUEUED = "ENQUEUED";

    // Each row gets its id in arrival order (the relay publishes in id order), and the answer maps each arrival
    // to its row by that id: RETURNING has no order, and a parked delivery already written returns none.
    private static final String INSERT = """
            WITH arrived AS MATERIALIZED (
                SELECT i.*, nextval((SELECT pg_get_serial_sequence('callback_log', 'callback_log_id'))) AS id
                FROM unnest(?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                    ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::text[], ?::bigint[])
                    WITH ORDINALITY
                    AS i(received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type,
                         event_type, change_type, event_key, event_created_at, remote_addr, parked_id,
                         maybe_stored_as, arrival)
            ), written AS (
                INSERT INTO callback_log (callback_log_id, received_at, app, corp_id, agent_id, query_string, raw_body,
                    plaintext, msg_type, event_type, change_type, event_key, event_created_at, attempt,
                    seconds_since_previous, remote_addr, outcome, parked_id)
                OVERRIDING SYSTEM VALUE
                SELECT id, received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type,
                    event_type, change_type, event_key, event_created_at, prior + rank,
                    CASE WHEN previous IS NOT NULL  -- greatest() would turn the first delivery's null gap into 0
                        THEN greatest(0, round(extract(epoch FROM received_at - previous), 3)) END,
                    remote_addr, '%s', parked_id
                FROM (
                    SELECT a.*, coalesce(p.n, 0) AS prior, row_number() OVER w AS rank,
                        coalesce(lag(a.received_at) OVER w, p.last) AS previous
                    FROM arrived a
                    LEFT JOIN LATERAL (SELECT count(*) AS n, max(c.received_at) AS last
                                       FROM callback_log c WHERE c.event_key = a.event_key) AS p ON true
                    -- a parked delivery already written by an interrupted drain is not written again, nor one
                    -- whose group commit did commit although it failed on a lost connection
                    WHERE (a.parked_id IS NULL
                           OR NOT EXISTS (SELECT 1 FROM callback_log d WHERE d.parked_id = a.parked_id))
                      AND (a.maybe_stored_as IS NULL
                           OR NOT EXISTS (SELECT 1 FROM callback_log s WHERE s.callback_log_id = a.maybe_stored_as))
                    WINDOW w AS (PARTITION BY a.event_key ORDER BY a.arrival)
                ) AS numbered
                RETURNING callback_log_id, attempt, seconds_since_previous
            )
            SELECT a.id, w.attempt, w.seconds_since_previous  -- no attempt: not written
            FROM arrived a LEFT JOIN written w ON w.callback_log_id = a.id
            ORDER BY a.arrival
            """.formatted(OUTCOME_ENQUEUED);

    // All of it in one round trip: pgjdbc sends the statements of one PreparedStatement together, and
    // PostgreSQL gives each its own snapshot (read committed), so the insert's count sees every row that the
    // lock's previous holders committed. Under load each round trip waits for a core twice (our thread, then
    // the backend): the five round trips a group took (timeouts, locks, ids, insert, commit) were most of its
    // time (docs/benchmarks.md, "One round trip before the commit").
    private static final String LOCK_THEN_INSERT = TIMEOUTS + ";\n" + LOCK_KEYS + ";\n" + INSERT;

    private CallbackLogInsert() {
    }

    /**
     * The rows of {@code deliveries}, in the same order; null for a parked delivery that was already written.
     * Throws without committing anything on failure.
     */
    public static List<RecordedDelivery> insert(Connection c, List<IncomingDelivery> deliveries) throws SQLException {
        int n = deliveries.size();
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = deliveries.get(i).eventKey();
        }
        String[][] text = new String[12][n];
        for (int i = 0; i < n; i++) {
            IncomingDelivery d = deliveries.get(i);
            String[] row = {d.receivedAt().toString(), d.app(), d.corpId(), d.agentId(), d.queryString(), d.rawBody(),
                d.plaintext(), d.msgType(), d.eventType(), d.changeType(), keys[i], d.eventCreatedAt()};
            for (int col = 0; col < row.length; col++) {
                text[col][i] = row[col];
            }
        }
        String[] remote = deliveries.stream().map(IncomingDelivery::remoteAddr).toArray(String[]::new);
        String[] parked = deliveries.stream().map(IncomingDelivery::parkedId).toArray(String[]::new);
        Long[] maybeStored = deliveries.stream().map(IncomingDelivery::maybeStoredAs).toArray(Long[]::new);
        List<RecordedDelivery> rows = new ArrayList<>(n);
        try (PreparedStatement statements = c.prepareStatement(LOCK_THEN_INSERT)) {
            int p = 0;
            statements.setInt(++p, LOCK_NAMESPACE);
            statements.setArray(++p, c.createArrayOf("text", keys));
            for (String[] column : text) {
                statements.setArray(++p, c.createArrayOf("text", column));
            }
            statements.setArray(++p, c.createArrayOf("text", remote));
            statements.setArray(++p, c.createArrayOf("text", parked));
            statements.setArray(++p, c.createArrayOf("bigint", maybeStored));
            ResultSets.each(statements, (number, rs) -> {
                // the two SETs count nothing, the lock's rows are one per key: the insert's answer comes last
                if (number == 2) {
                    readRows(rs, deliveries, rows);
                }
            });
        }
        if (rows.size() != n) {
            throw new SQLException("the callback_log insert answered " + rows.size() + " rows for " + n);
        }
        return rows;
    }

    private static void readRows(ResultSet rs, List<IncomingDelivery> deliveries, List<RecordedDelivery> rows)
            throws SQLException {
        while (rs.next()) {
            long id = rs.getLong(1);
            int attempt = rs.getInt(2);
            if (rs.wasNull()) {
                if (deliveries.get(rows.size()).parkedId() == null) {
                    throw new SQLException("callback_log row " + id + " was not returned by its insert");
                }
                rows.add(null);
            } else {
                rows.add(new RecordedDelivery(id, attempt, rs.getBigDecimal(3)));
            }
        }
    }

}
