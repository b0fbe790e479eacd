package io.wecominbox.ops.database;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Says once at start when PostgreSQL runs with autovacuum off. The transaction manager writes and deletes rows of
 * its recovery log (schema wecom_tranlog) at every two-phase commit and the relay marks every callback_log row;
 * without autovacuum their dead rows stay, and the tables and their indexes grow for as long as the server runs
 * (the log's statements are planned for its size, server.xml, so they no longer read them all: docs/benchmarks.md).
 * It changes nothing; the database is the DBA's.
 */
@ApplicationScoped
public class AutovacuumNote {

    private static final Logger LOG = Logger.getLogger(AutovacuumNote.class.getName());

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Resource
    private ManagedExecutorService executor;

    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        // in the background: a database that is down at start must not hold the server's start back
        executor.execute(() -> readSetting().flatMap(AutovacuumNote::note).ifPresent(LOG::warning));
    }

    /** The note for the server's {@code autovacuum} setting as SHOW gives it ("on" or "off"). */
    static Optional<String> note(String autovacuum) {
        if (!"off".equalsIgnoreCase(autovacuum.strip())) {
            return Optional.empty();
        }
        return Optional.of("PostgreSQL runs with autovacuum off: the transaction manager's recovery log (schema "
                + "wecom_tranlog, written and deleted at every XA commit) and callback_log's publication marks leave "
                + "dead rows that nothing removes, so those tables and their indexes grow, and the statements that scan "
                + "them slow down, the longer the server runs. Turn autovacuum on, or VACUUM those tables every minute "
                + "or so; "
                + "docs/dba.md, Vacuum");
    }

    private Optional<String> readSetting() {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT current_setting('autovacuum')")) {
            return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            return Optional.empty(); // nothing to say about a database we cannot read now; its checks report it
        }
    }
}
