package io.wecominbox.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.HashSet;
import java.util.Set;

/** Transactions prepared and not yet resolved after a crash: what recovery must bring back to zero. */
public final class InDoubt {

    private static final String PREPARED_HERE =
            "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";
    /** Prepared since a moment of the database's clock: a hunt's own, not an earlier crash's still recovering. */
    private static final String PREPARED_SINCE = " AND prepared >= to_timestamp(? / 1000.0)";
    private static final String NOW_MILLIS = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint";

    private static final String PREPARED_ROWS = "SELECT gid, prepared, owner, transaction::text "
            + "FROM pg_prepared_xacts WHERE database = current_database() AND %s ORDER BY prepared";

    /**
     * How long a running server may take to finish a branch that an outage (a broker or database restart) left
     * prepared, from the retry schedule in server.xml: a commit decision waits for the transaction log, which is
     * in PostgreSQL and retried every logRetryInterval (5 s); a commit or rollback that fails then is retried
     * every heuristicRetryInterval (10 s; Liberty doubles it only after 10 failed retries, TransactionImpl
     * .RetryAlarm) on a fresh connection. So a branch is finished by the first retry after the resource is back:
     * at most 5 + 10 s, plus one more 10 s if that retry met the server still starting. Issue 23 measured ~15 s
     * after a fast PostgreSQL restart (06:29:23 back, commits retried at 06:29:38). Three times 25 s leaves room
     * for a loaded 2-core machine; a branch still prepared after that is not late but stuck.
     */
    public static final Duration RESOLVED_WITHIN = Duration.ofSeconds(3 * (5 + 10 + 10));

    private InDoubt() {
    }

    /** A prepared PostgreSQL transaction as pg_prepared_xacts shows it. */
    public record Prepared(String gid, OffsetDateTime prepared, String owner, String transaction) {

        /** One line to match against Liberty's log: the gid, when, who, and the Xid as Liberty prints it. */
        @Override
        public String toString() {
            return gid + " prepared " + prepared + " by " + owner + " (PostgreSQL transaction " + transaction
                    + "; Liberty Xid data " + libertyXidData(gid) + ")";
        }
    }

    /** Prepared PostgreSQL transactions of the stack's database. */
    public static long database() {
        return Sql.count(PREPARED_HERE);
    }

    /** Nothing in doubt, in the database nor in the broker's journal. */
    public static boolean none() {
        return database() == 0 && BrokerConsole.preparedTransactions() == 0;
    }

    /** The database's clock now: compare with pg_prepared_xacts.prepared on the same clock. */
    public static OffsetDateTime databaseNow() {
        try (Connection connection = StackEnv.openDatabase();
             PreparedStatement statement = connection.prepareStatement("SELECT clock_timestamp()");
             ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getObject(1, OffsetDateTime.class);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Branches prepared at or after {@code since} (a case's own), oldest first. */
    public static List<Prepared> preparedSince(OffsetDateTime since) {
        return prepared("prepared >= ?", since);
    }

    /** Branches prepared before {@code before} (left by earlier tests when a case starts), oldest first. */
    public static List<Prepared> preparedBefore(OffsetDateTime before) {
        return prepared("prepared < ?", before);
    }

    /** For an assertion message: one line per branch, or "none". */
    public static String describe(List<Prepared> branches) {
        return branches.isEmpty() ? "none"
                : branches.stream().map(p -> "\n  " + p).collect(Collectors.joining("", branches.size() + ":", ""));
    }

    /**
     * pgjdbc names a branch {@code formatId_base64(gtrid)_base64(bqual)}; Liberty's messages.log and FFDCs print
     * an Xid as {@code data(hex(gtrid) hex(bqual))}. This gives the latter, to grep Liberty's log for a gid
     * ("?" for a gid that is not pgjdbc's).
     */
    static String libertyXidData(String gid) {
        String[] parts = gid.split("_");
        if (parts.length != 3) {
            return "?";
        }
        try {
            HexFormat hex = HexFormat.of();
            return hex.formatHex(Base64.getDecoder().decode(parts[1]))
                    + hex.formatHex(Base64.getDecoder().decode(parts[2]));
        } catch (IllegalArgumentException notBase64) {
            return "?";
        }
    }

    private static List<Prepared> prepared(String condition, OffsetDateTime time) {
        try (Connection connection = StackEnv.openDatabase();
             PreparedStatement statement = connection.prepareStatement(PREPARED_ROWS.formatted(condition))) {
            statement.setObject(1, time);
            List<Prepared> branches = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    branches.add(new Prepared(rows.getString(1), rows.getObject(2, OffsetDateTime.class),
                            rows.getString(3), rows.getString(4)));
                }
            }
            return branches;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Now, by the database's clock (what pg_prepared_xacts.prepared is stamped with), in epoch milliseconds. */
    public static long databaseMillis() {
        return Sql.count(NOW_MILLIS);
    }

    /** Prepared PostgreSQL transactions of the stack's database prepared at or after {@code databaseMillis}. */
    public static long databaseSince(long databaseMillis) {
        return Sql.count(PREPARED_HERE + PREPARED_SINCE, databaseMillis);
    }

    /** The global ids of those branches: to tell which of them are still there a moment later. */
    public static Set<String> branchesSince(long databaseMillis) {
        try (Connection db = StackEnv.openDatabase();
             PreparedStatement select = db.prepareStatement("SELECT gid FROM pg_prepared_xacts WHERE database = "
                 + "current_database()" + PREPARED_SINCE)) {
            select.setLong(1, databaseMillis);
            Set<String> gids = new HashSet<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    gids.add(rows.getString(1));
                }
            }
            return gids;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
