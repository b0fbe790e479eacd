package io.wecominbox.testsupport;

import java.sql.Connection;

/**
 * A case on its own connection to the stack's database, in one transaction rolled back at the end whatever it did
 * (DDL included: PostgreSQL's is transactional), so nothing it writes stays or is seen by the running stack.
 */
public final class RolledBackTransaction {

    /** What runs inside the transaction. */
    public interface Case {
        void run(Connection c) throws Exception;
    }

    private RolledBackTransaction() {
    }

    public static void run(Case body) throws Exception {
        try (Connection c = StackEnv.openDatabase()) {
            c.setAutoCommit(false);
            try {
                body.run(c);
            } finally {
                c.rollback();
            }
        }
    }
}
