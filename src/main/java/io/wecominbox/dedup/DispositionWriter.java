package io.wecominbox.dedup;

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

    private static final String INSERT = """
            INSERT INTO handler_disposition (recorded_at, handler, disposition, app, event_key, dedup_key, batch_id,
                message_id, callback_log_id, delivery_count, replay_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                for (DispositionRow row : rows) {
                    DedupRequest r = row.request();
                    int i = 0;
                    insert.setObject(++i, row.recordedAt());
                    insert.setString(++i, r.handler());
                    insert.setString(++i, row.disposition().name());
                    insert.setString(++i, r.app());
                    insert.setString(++i, r.eventKey());
                    insert.setString(++i, r.dedupKey());
                    insert.setString(++i, r.batchId());
                    insert.setString(++i, r.messageId());
                    insert.setLong(++i, r.callbackLogId());
                    insert.setInt(++i, r.deliveryCount());
                    insert.setObject(++i, r.replayId(), java.sql.Types.BIGINT);
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
        }
    }
}
