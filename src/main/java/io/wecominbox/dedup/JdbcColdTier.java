package io.wecominbox.dedup;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
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

    private ColdClaim tryClaim(ColdRecord record) {
        if (!breaker.allows()) {
            return ColdClaim.STORE_DOWN;
        }
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            // Only "no connection at all" is a store-down the policy may decide on: nothing is enlisted yet.
            if (isConnectionFailure(e)) {
                if (breaker.failure()) {
                    LOG.warning("cold tier (database) unavailable: " + e.getClass().getSimpleName() + " "
                        + e.getSQLState() + "; handlers follow their on-cold-store-down policy");
                }
                return ColdClaim.STORE_DOWN;
            }
            throw new DedupStoreException("cold tier: no connection", e);
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
            throw new DedupStoreException("cold tier: claim of " + record.dedupKey() + " failed", e);
        }
    }

    static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLTransientConnectionException || e instanceof SQLNonTransientConnectionException
            || (state != null && state.startsWith("08"));
    }
}
