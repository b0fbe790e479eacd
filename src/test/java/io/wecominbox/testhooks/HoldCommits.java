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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * TEST SWITCH, test deployment only: the first callback_log commit carrying an event whose plaintext contains
 * {@code wecom.chaos.hold-commit.marker} waits before committing, its rows inserted and its writer held, for the
 * milliseconds written after the marker ({@code MARKER*8000}; default 5000): a stalled commit, placed exactly.
 * Held writers show in PostgreSQL as sessions idle in a transaction after the insert ({@link #HELD_WRITERS}).
 */
@Decorator
@Priority(Interceptor.Priority.APPLICATION)
public abstract class HoldCommits implements CallbackLogCommit {

    /**
     * The writers held now: counted by a test, through the database, from outside the server. A session shows the
     * last statement it ran: the group's insert, a CTE whose insert is inside.
     */
    public static final String HELD_WRITERS = "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in"
        + " transaction' AND query LIKE '%INSERT INTO callback_log (%'";

    private static final String MARKER = "wecom.chaos.hold-commit.marker";
    private static final Logger LOG = Logger.getLogger(HoldCommits.class.getName());
    private static final Set<String> HELD = ConcurrentHashMap.newKeySet();

    @Inject
    @Delegate
    CallbackLogCommit commits;

    @Override
    public void commit(Connection c, List<IncomingDelivery> deliveries) throws SQLException {
        Optional<IncomingDelivery> hit = CommitMarkers.carrying(deliveries, MARKER);
        if (hit.isPresent() && HELD.add(hit.get().eventKey())) {
            int millis = CommitMarkers.countAfter(hit.get().plaintext(), MARKER, 5000);
            LOG.warning("CHAOS SWITCH ON: the commit of " + deliveries.size() + " callback_log rows waits " + millis
                + " ms, its writer held (test deployment)");
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        commits.commit(c, deliveries);
    }
}
