package io.wecominbox.ingest;

import io.wecominbox.callbacklog.IncomingDelivery;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The commit of a callback_log write: a group commit, or a drain of parked deliveries. A plain commit in the
 * product ({@link PlainCallbackLogCommit}); the test deployment decorates it to lose the database connection at a
 * chosen commit, as a PostgreSQL restart does, so each fault can be placed exactly instead of raced.
 */
public interface CallbackLogCommit {

    /** Commits {@code c}, whose open transaction wrote {@code deliveries}. */
    void commit(Connection c, List<IncomingDelivery> deliveries) throws SQLException;
}
