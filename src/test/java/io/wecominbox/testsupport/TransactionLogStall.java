package io.wecominbox.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds back one node's transaction-log writes, as a slow log disk would: a lock on the node's own table of
 * the log (schema wecom_tranlog, table was_tran_log + its recovery identity, server.xml). A two-phase commit
 * of that node then stops after every partner has prepared and before the decision is logged, so its
 * branches stay prepared for as long as the stall lasts, while the other nodes, whose tables are not locked,
 * go on. Closing the stall lets the writes through (or, after a kill, lets peer recovery read the table).
 */
public final class TransactionLogStall implements AutoCloseable {

    private final Connection db;
    private final String table;

    private TransactionLogStall(Connection db, String table) {
        this.db = db;
        this.table = table;
    }

    /** Locks the log table of the server whose recovery identity (its node name) is {@code recoveryIdentity}. */
    public static TransactionLogStall of(String recoveryIdentity) throws SQLException {
        Connection db = StackEnv.openDatabase();
        try {
            String table = logTable(db, recoveryIdentity);
            db.setAutoCommit(false);
            try (Statement lock = db.createStatement()) {
                // the log's own transactions are short: a lock not granted within seconds is a defect to see
                lock.execute("SET LOCAL lock_timeout = '5s'");
                // EXCLUSIVE: conflicts with the log's inserts, updates and SELECT ... FOR UPDATE, not with reads
                lock.execute("LOCK TABLE wecom_tranlog." + table + " IN EXCLUSIVE MODE");
            }
            return new TransactionLogStall(db, table);
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    private static String logTable(Connection db, String recoveryIdentity) throws SQLException {
        String wanted = "was_tran_log" + recoveryIdentity.toLowerCase().replaceAll("[^a-z0-9_]", "");
        List<String> tables = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = 'wecom_tranlog' AND table_name LIKE 'was_tran_log%' ORDER BY 1");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        if (!tables.contains(wanted)) {
            throw new IllegalStateException("no transaction log table " + wanted + " for recovery identity "
                + recoveryIdentity + " in schema wecom_tranlog; there are " + tables);
        }
        return wanted;
    }

    /** Sessions waiting for the lock now: the node's log writes held back (0 when it wrote nothing since). */
    public long heldWrites() throws SQLException {
        try (Connection look = StackEnv.openDatabase();
             PreparedStatement s = look.prepareStatement("SELECT count(*) FROM pg_locks WHERE NOT granted"
                 + " AND relation = to_regclass('wecom_tranlog.' || ?)")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            db.rollback();
        } finally {
            db.close();
        }
    }
}
