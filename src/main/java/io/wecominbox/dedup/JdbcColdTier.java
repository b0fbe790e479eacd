package io.wecominbox.dedup;

import static io.wecominbox.db.ArrayColumns.column;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The cold tier on PostgreSQL (table handler_dedup). Duplicates are detected by the row count of
 * {@code INSERT ... ON CONFLICT DO NOTHING}, never by catching a unique violation: that error aborts the
 * whole PostgreSQL transaction, business writes included. A concurrent duplicate's insert waits on the
 * unique index until the first transaction ends, then sees its row (0 rows: skip) or none (1 row: run).
 */
@ApplicationScoped
public class JdbcColdTier implements ColdTier {

    private static final Logger LOG = Logger.getLogger(JdbcColdTier.class.getName());

    private static final String CLAIM = """
            INSERT INTO handler_dedup (dedup_key, handler, event_key, batch_id, app, message_id, callback_log_id,
                processed_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, now(), now() + ? * interval '1 second')
            ON CONFLICT (dedup_key) DO NOTHING
            """;

    // a batch's claims in one statement; RETURNING names the keys this transaction inserted
    private static final String CLAIM_ALL = """
            INSERT INTO handler_dedup (dedup_key, handler, event_key, batch_id, app, message_id, callback_log_id,
                processed_at, expires_at)
            SELECT k, h, e, b, a, m, c, now(), now() + w * interval '1 second'
            FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[])
                AS t(k, h, e, b, a, m, c, w)
            ON CONFLICT (dedup_key) DO NOTHING
            RETURNING dedup_key
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    @ConfigProperty(name = "wecom.dedup.cold.breaker-open", defaultValue = "PT2S")
    Duration breakerOpen;

    @Inject
    StoreMetrics storeMetrics;

    private CircuitBreaker breaker;

    @PostConstruct
    void init() {
        breaker = new CircuitBreaker(breakerOpen, System::nanoTime);
        storeMetrics.breakerState("cold", breaker::isOpen);
    }

    @Override
    public ColdClaim claim(ColdRecord record) {
        long started = System.nanoTime();
        ColdClaim claim = tryClaim(record);
        storeMetrics.claimed("cold", started, claim == ColdClaim.STORE_DOWN);
        return claim;
    }

    @Override
    public Map<String, ColdClaim> claimAll(List<ColdRecord> records) {
        if (records.size() == 1) {
            return Map.of(records.get(0).dedupKey(), claim(records.get(0)));
        }
        long started = System.nanoTime();
        Map<String, ColdClaim> claims = tryClaimAll(records);
        storeMetrics.claimed("cold", started, claims.containsValue(ColdClaim.STORE_DOWN));
        return claims;
    }

    private Map<String, ColdClaim> tryClaimAll(List<ColdRecord> records) {
        Connection connection = connect();
        if (connection == null) {
            return records.stream().collect(Collectors.toMap(ColdRecord::dedupKey, r -> ColdClaim.STORE_DOWN));
        }
        // in key order: two batches that share keys then wait on each other instead of deadlocking
        List<ColdRecord> sorted = records.stream().sorted(Comparator.comparing(ColdRecord::dedupKey)).toList();
        try (connection; PreparedStatement insert = connection.prepareStatement(CLAIM_ALL)) {
            int i = 0;
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::dedupKey)));
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::handler)));
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::eventKey)));
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::batchId)));
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::app)));
            insert.setArray(++i, connection.createArrayOf("text", column(sorted, ColdRecord::messageId)));
            insert.setArray(++i, connection.createArrayOf("bigint", column(sorted, ColdRecord::callbackLogId)));
            insert.setArray(++i, connection.createArrayOf("bigint", column(sorted, r -> r.window().toSeconds())));
            Map<String, ColdClaim> claims = new HashMap<>();
            records.forEach(r -> claims.put(r.dedupKey(), ColdClaim.DUPLICATE));
            try (ResultSet inserted = insert.executeQuery()) {
                while (inserted.next()) {
                    claims.put(inserted.getString(1), ColdClaim.CLAIMED);
                }
            }
            breaker.success();
            return claims;
        } catch (SQLException e) {
            throw new DedupStoreException("cold tier: claim of " + records.size() + " keys failed", e);
        }
    }


    /** A connection, or null when the database cannot be reached at all (a store-down the policy decides on). */
    private Connection connect() {
        if (!breaker.allows()) {
            return null;
        }
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            // Only "no connection at all" is a store-down the policy may decide on: nothing is enlisted yet.
            if (isConnectionFailure(e)) {
                if (breaker.failure()) {
                    LOG.warning("cold tier (database) unavailable: " + e.getClass().getSimpleName() + " "
                        + e.getSQLState() + "; handlers follow their on-cold-store-down policy");
                }
                return null;
            }
            throw new DedupStoreException("cold tier: no connection", e);
        }
    }

    private ColdClaim tryClaim(ColdRecord record) {
        Connection connection = connect();
        if (connection == null) {
            return ColdClaim.STORE_DOWN;
        }
        // A failure from here on happens inside the XA transaction: always a rollback, never a policy decision.
        try (connection; PreparedStatement insert = connection.prepareStatement(CLAIM)) {
            int i = 0;
            insert.setString(++i, record.dedupKey());
            insert.setString(++i, record.handler());
            insert.setString(++i, record.eventKey());
            insert.setString(++i, record.batchId());
            insert.setString(++i, record.app());
            insert.setString(++i, record.messageId());
            insert.setLong(++i, record.callbackLogId());
            insert.setLong(++i, record.window().toSeconds());
            int rows = insert.executeUpdate();
            breaker.success();
            return rows == 1 ? ColdClaim.CLAIMED : ColdClaim.DUPLICATE;
        } catch (SQLException e) {
            // the row id, not the key: keys are made of customers' identifiers and this message is logged
            throw new DedupStoreException("cold tier: claim for " + record.handler() + " of callback_log "
                + record.callbackLogId() + " failed", e);
        }
    }

    static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLTransientConnectionException || e instanceof SQLNonTransientConnectionException
            || (state != null && state.startsWith("08"));
    }
}
