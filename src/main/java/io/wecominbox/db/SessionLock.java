package io.wecominbox.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A PostgreSQL session advisory lock of two keys (a namespace of ours, then the job): the way a periodic job
 * runs on one node at a time. Held by the connection's session until released or the session ends, so a
 * node that dies mid-run frees it.
 */
public record SessionLock(int namespace, int key) {

    /** True when this session now holds it; false when another session does (nothing waits). */
    public boolean tryLock(Connection c) throws SQLException {
        return call(c, "pg_try_advisory_lock");
    }

    public void unlock(Connection c) throws SQLException {
        call(c, "pg_advisory_unlock");
    }

    private boolean call(Connection c, String function) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT " + function + "(?, ?)")) {
            lock.setInt(1, namespace);
            lock.setInt(2, key);
            try (ResultSet rs = lock.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
