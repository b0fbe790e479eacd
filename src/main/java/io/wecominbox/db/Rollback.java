package io.wecominbox.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Rolling back a local transaction that already failed: the first error is the one to report. */
public final class Rollback {

    private Rollback() {
    }

    /** Rolls back, ignoring a failure: nothing to add to the error the caller is about to throw. */
    public static void quietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // a dead connection: the server already ended its transaction, and the pool replaces the connection
        }
    }
}
