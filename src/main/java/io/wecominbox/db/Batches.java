package io.wecominbox.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/** A statement over "rows older than a time, at most a batch of them", run until a batch comes back short. */
public final class Batches {

    private Batches() {
    }

    /** {@code sql} takes the cutoff, then the batch size; returns the rows changed in all. */
    public static long repeat(Connection c, String sql, int batch, OffsetDateTime before) throws SQLException {
        long total = 0;
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            while (true) {
                statement.setObject(1, before);
                statement.setInt(2, batch);
                int rows = statement.executeUpdate();
                total += rows;
                if (rows < batch) {
                    return total;
                }
            }
        }
    }
}
