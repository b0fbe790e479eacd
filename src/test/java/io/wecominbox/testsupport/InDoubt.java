package io.wecominbox.testsupport;

/** Transactions prepared and not yet resolved after a crash: what recovery must bring back to zero. */
public final class InDoubt {

    private static final String PREPARED_HERE =
            "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";

    private InDoubt() {
    }

    /** Prepared PostgreSQL transactions of the stack's database. */
    public static long database() {
        return Sql.count(PREPARED_HERE);
    }

    /** Nothing in doubt, in the database nor in the broker's journal. */
    public static boolean none() {
        return database() == 0 && BrokerConsole.preparedTransactions() == 0;
    }
}
