package io.wecominbox.testhooks;

import io.wecominbox.callbacklog.IncomingDelivery;
import io.wecominbox.ingest.CallbackLogCommit;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * TEST SWITCH, test deployment only: a callback_log commit whose deliveries include one whose plaintext contains
 * {@code wecom.chaos.lose-connection-at-commit.marker} loses its database connection just before it commits: the
 * session's own backend is terminated (what a PostgreSQL restart does to it), so the commit and any rollback
 * after it fail on a dead connection. Each such event key loses the first
 * {@code wecom.chaos.lose-connection-at-commit.times} (default 2) commits that carry it, then commits pass: with
 * 2, the group commit fails (the delivery is parked in the broker and answered), then the first drain fails.
 * A count written right after the marker ({@code MARKER*12}) overrides it for that event.
 *
 * <p>{@code wecom.chaos.lose-connection-after-commit.marker}: the first commit carrying it goes through, and then
 * the connection is lost before the answer is read (what a restart between the commit record and the reply does):
 * the caller sees SQLState 08006, its outcome unknown, although the rows are there.
 */
@Decorator
@Priority(Interceptor.Priority.APPLICATION)
public abstract class LoseConnectionAtCommit implements CallbackLogCommit {

    private static final String AT_COMMIT = "wecom.chaos.lose-connection-at-commit.marker";
    private static final String AFTER_COMMIT = "wecom.chaos.lose-connection-after-commit.marker";
    private static final Logger LOG = Logger.getLogger(LoseConnectionAtCommit.class.getName());
    private static final Map<String, Integer> LOST = new ConcurrentHashMap<>();
    private static final Set<String> LOST_AFTER = ConcurrentHashMap.newKeySet();

    @Inject
    @Delegate
    CallbackLogCommit commits;

    @Override
    public void commit(Connection c, List<IncomingDelivery> deliveries) throws SQLException {
        int times = ConfigProvider.getConfig()
            .getOptionalValue("wecom.chaos.lose-connection-at-commit.times", Integer.class).orElse(2);
        Optional<IncomingDelivery> hit = CommitMarkers.carrying(deliveries, AT_COMMIT);
        Optional<IncomingDelivery> afterHit = CommitMarkers.carrying(deliveries, AFTER_COMMIT);
        if (afterHit.isPresent() && LOST_AFTER.add(afterHit.get().eventKey())) {
            commits.commit(c, deliveries);
            LOG.warning("CHAOS SWITCH ON: " + deliveries.size() + " callback_log rows committed, then the connection"
                + " is lost before the answer (test deployment)");
            terminateBackend(c);
            throw new SQLException("chaos: the connection was lost after COMMIT was sent", "08006");
        }
        if (hit.isPresent() && LOST.merge(hit.get().eventKey(), 1, Integer::sum)
                <= CommitMarkers.countAfter(hit.get().plaintext(), AT_COMMIT, times)) {
            LOG.warning("CHAOS SWITCH ON: the database connection is lost before the commit of " + deliveries.size()
                + " callback_log rows (test deployment), commit " + LOST.get(hit.get().eventKey()) + " of this key");
            terminateBackend(c);
        }
        commits.commit(c, deliveries);
    }

    private static void terminateBackend(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_terminate_backend(pg_backend_pid())");
        } catch (SQLException expected) {
            // the backend ends while answering: the connection is dead from here on
        }
    }
}
