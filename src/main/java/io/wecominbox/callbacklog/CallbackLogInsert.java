package io.wecominbox.callbacklog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inserts a group of deliveries into callback_log in one statement on the caller's connection (the caller
 * commits). Attempt numbers and the gap to the previous delivery count the rows already committed and the
 * earlier ones of the same key in this group, so a retry that arrives with its twin in one commit is still
 * attempt 2.
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

    // Ids taken up front so that each returned row maps back to its request by id (RETURNING has no order).
    private static final String NEXT_IDS =
        "SELECT nextval(pg_get_serial_sequence('callback_log', 'callback_log_id')) FROM generate_series(1, ?)";

    private static final String INSERT = """
            INSERT INTO callback_log (callback_log_id, received_at, app, corp_id, agent_id, query_string, raw_body,
                plaintext, msg_type, event_type, change_type, event_key, event_created_at, attempt,
                seconds_since_previous, remote_addr, outcome, parked_id)
            OVERRIDING SYSTEM VALUE
            SELECT id, received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type, event_type,
                change_type, event_key, event_created_at, prior + rank,
                CASE WHEN previous IS NOT NULL  -- greatest() would turn the first delivery's null gap into 0
                    THEN greatest(0, round(extract(epoch FROM received_at - previous), 3)) END,
                remote_addr, ?, parked_id
            FROM (
                SELECT i.*, coalesce(p.n, 0) AS prior, row_number() OVER w AS rank,
                    coalesce(lag(i.received_at) OVER w, p.last) AS previous
                FROM unnest(?::bigint[], ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                    ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::text[],
                    ?::bigint[])
                    AS i(id, received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type,
                         event_type, change_type, event_key, event_created_at, remote_addr, parked_id,
                         maybe_stored_as)
                LEFT JOIN LATERAL (SELECT count(*) AS n, max(c.received_at) AS last
                                   FROM callback_log c WHERE c.event_key = i.event_key) AS p ON true
                -- a parked delivery already written by an interrupted drain is not written again, nor one whose
                -- group commit did commit although it failed on a lost connection
                WHERE (i.parked_id IS NULL
                       OR NOT EXISTS (SELECT 1 FROM callback_log d WHERE d.parked_id = i.parked_id))
                  AND (i.maybe_stored_as IS NULL
                       OR NOT EXISTS (SELECT 1 FROM callback_log s WHERE s.callback_log_id = i.maybe_stored_as))
                WINDOW w AS (PARTITION BY i.event_key ORDER BY i.id)
            ) AS numbered
            RETURNING callback_log_id, attempt, seconds_since_previous
            """;

    static final String OUTCOME_ENQUEUED = "ENQUEUED";

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
        try (Statement timeouts = c.createStatement()) {
            timeouts.execute(TIMEOUTS);
        }
        try (PreparedStatement lock = c.prepareStatement(LOCK_KEYS)) {
            lock.setInt(1, LOCK_NAMESPACE);
            lock.setArray(2, c.createArrayOf("text", keys));
            lock.execute();
        }
        Long[] ids = nextIds(c, n);
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
        Map<Long, RecordedDelivery> byId = new HashMap<>(n * 2);
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            int p = 0;
            insert.setString(++p, OUTCOME_ENQUEUED);
            insert.setArray(++p, c.createArrayOf("bigint", ids));
            for (String[] column : text) {
                insert.setArray(++p, c.createArrayOf("text", column));
            }
            insert.setArray(++p, c.createArrayOf("text", remote));
            insert.setArray(++p, c.createArrayOf("text", parked));
            insert.setArray(++p, c.createArrayOf("bigint", maybeStored));
            try (ResultSet rs = insert.executeQuery()) {
                while (rs.next()) {
                    byId.put(rs.getLong(1), new RecordedDelivery(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3)));
                }
            }
        }
        List<RecordedDelivery> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RecordedDelivery row = byId.get(ids[i]);
            if (row == null && deliveries.get(i).parkedId() == null) {
                throw new SQLException("callback_log row " + ids[i] + " was not returned by its insert");
            }
            rows.add(row);
        }
        return rows;
    }

    private static Long[] nextIds(Connection c, int n) throws SQLException {
        Long[] ids = new Long[n];
        try (PreparedStatement next = c.prepareStatement(NEXT_IDS)) {
            next.setInt(1, n);
            try (ResultSet rs = next.executeQuery()) {
                for (int i = 0; i < n && rs.next(); i++) {
                    ids[i] = rs.getLong(1);
                }
            }
        }
        Arrays.sort(ids); // ascending in arrival order: the relay publishes in id order
        return ids;
    }

}
