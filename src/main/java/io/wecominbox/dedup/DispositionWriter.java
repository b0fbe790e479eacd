package io.wecominbox.dedup;

import static io.wecominbox.db.ArrayColumns.column;

import io.wecominbox.dedup.DispositionRecorder.DispositionRow;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Moves queued dispositions into handler_disposition, one batch per transaction, on the scheduler's thread.
 * A batch that fails (database down) is kept and retried first; new ones wait in the bounded queue.
 */
@ApplicationScoped
public class DispositionWriter {

    private static final Logger LOG = Logger.getLogger(DispositionWriter.class.getName());
    private static final int BATCH = 500;

    // a batch in one statement, one array a column: a JDBC batch of single-row inserts was PostgreSQL's largest
    // statement by time under load (a parse, plan and executor start per row)
    private static final String INSERT = """
            INSERT INTO handler_disposition (recorded_at, handler, disposition, app, event_key, dedup_key, batch_id,
                message_id, callback_log_id, delivery_count, replay_id)
            SELECT * FROM unnest(?::text[]::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                ?::text[], ?::text[], ?::bigint[], ?::integer[], ?::bigint[])
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    DispositionRecorder recorder;

    private List<DispositionRow> pending = new ArrayList<>();
    private boolean failing;

    /** Writes everything queued so far; returns the number of rows written. */
    public synchronized int flush() {
        int written = 0;
        while (true) {
            if (pending.isEmpty()) {
                pending = recorder.drain(BATCH);
            }
            if (pending.isEmpty()) {
                return written;
            }
            try {
                insert(pending);
                written += pending.size();
                pending = new ArrayList<>();
                if (failing) {
                    failing = false;
                    LOG.info("handler_disposition writes work again");
                }
            } catch (SQLException e) {
                if (!failing) {
                    failing = true;
                    LOG.warning("handler_disposition write failed (" + e.getSQLState() + "); keeping "
                        + pending.size() + " rows to retry, " + recorder.backlog() + " queued");
                }
                return written;
            }
        }
    }

    private void insert(List<DispositionRow> rows) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                int i = 0;
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.recordedAt().toString())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().handler())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.disposition().name())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().app())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().eventKey())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().dedupKey())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().batchId())));
                insert.setArray(++i, connection.createArrayOf("text", column(rows, row -> row.request().messageId())));
                insert.setArray(++i, connection.createArrayOf("bigint", column(rows, row -> row.request().callbackLogId())));
                insert.setArray(++i, connection.createArrayOf("integer", column(rows, row -> row.request().deliveryCount())));
                insert.setArray(++i, connection.createArrayOf("bigint", column(rows, row -> row.request().replayId())));
                insert.executeUpdate();
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
        }
    }

}
