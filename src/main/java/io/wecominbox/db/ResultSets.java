package io.wecominbox.db;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The answers of a statement that pgjdbc sends as several in one round trip ({@code SET ...; SELECT ...}): each
 * result set in order, numbered from 1, the update counts (a SET's, a lock's) skipped.
 */
public final class ResultSets {

    /** Reads one result set; it is closed after. */
    @FunctionalInterface
    public interface Reader {
        void read(int number, ResultSet rs) throws SQLException;
    }

    private ResultSets() {
    }

    /** Executes the statement and hands every result set it answers to {@code reader}, in order. */
    public static void each(PreparedStatement statement, Reader reader) throws SQLException {
        boolean resultSet = statement.execute();
        int number = 0;
        while (resultSet || statement.getUpdateCount() != -1) {
            if (resultSet) {
                try (ResultSet rs = statement.getResultSet()) {
                    reader.read(++number, rs);
                }
            }
            resultSet = statement.getMoreResults();
        }
    }
}
