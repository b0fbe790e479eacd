package io.wecominbox.handler;

import io.wecominbox.testsupport.Poll;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What the handlers did, read from the database: dispositions (written about a second after the outcome),
 * dedup rows and stored messages. Works in the container (a DataSource) and outside (StackEnv).
 */
public final class HandlerOutcomes {

    /** Where connections come from: {@code dataSource::getConnection} or {@code StackEnv::openDatabase}. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    private final Connections db;

    public HandlerOutcomes(Connections db) {
        this.db = db;
    }

    /** Dispositions of one event at one handler, oldest first (batched re-runs included). */
    public List<String> dispositions(String handler, String eventKey) {
        return strings("SELECT disposition FROM handler_disposition WHERE handler = ? AND event_key = ?"
            + " ORDER BY disposition_id", handler, eventKey);
    }

    /** Waits until the dispositions satisfy {@code done}; returns them either way. */
    public List<String> awaitDispositions(String handler, String eventKey, Duration timeout,
                                          Predicate<List<String>> done) {
        Poll.until(timeout, () -> done.test(dispositions(handler, eventKey)));
        return dispositions(handler, eventKey);
    }

    public long dedupRows(String handler, String eventKey) {
        return count("SELECT count(*) FROM handler_dedup WHERE handler = ? AND event_key = ?", handler, eventKey);
    }

    public long storedMessages(String app, String msgId) {
        return count("SELECT count(*) FROM conversation_message WHERE app = ? AND msg_id = ?", app, msgId);
    }

    public long count(String sql, Object... parameters) {
        List<String> values = strings(sql, parameters);
        return Long.parseLong(values.get(0));
    }

    public void execute(String sql, Object... parameters) {
        try (Connection c = db.open(); PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, parameters);
            s.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> strings(String sql, Object... parameters) {
        try (Connection c = db.open(); PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, parameters);
            List<String> values = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void bind(PreparedStatement s, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            s.setObject(i + 1, parameters[i]);
        }
    }

    public static boolean hasCompleted(List<String> dispositions) {
        return dispositions.stream().anyMatch(d -> d.equals("PROCESSED") || d.equals("RETRIED")
            || d.equals("FORCED") || d.equals("PROCEEDED_WITHOUT_STORE"));
    }

    private static long sequence = System.currentTimeMillis() * 1000;

    /** A MsgId no other test run used (WeCom's are 64-bit numbers). */
    public static synchronized String uniqueMsgId() {
        return Long.toString(++sequence);
    }
}
