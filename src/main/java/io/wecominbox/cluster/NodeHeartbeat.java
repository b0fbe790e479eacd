package io.wecominbox.cluster;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every {@code wecom.cluster.heartbeat} (5 s) this node upserts its cluster_node row with its last minute's
 * figures; an orderly stop sets stopped_at. One short autocommit statement on the local pool: a database
 * outage only makes the node look silent, it never holds the ACK path's connections.
 */
@ApplicationScoped
public class NodeHeartbeat {

    private static final Logger LOG = Logger.getLogger(NodeHeartbeat.class.getName());

    private static final String BEAT = """
            INSERT INTO cluster_node AS n (node_name, started_at, last_seen_at, accepted_last_minute,
                                           failed_last_minute, ack_p95_ms, ack_max_ms, relay_backlog)
            VALUES (?, ?, now(), ?, ?, ?, ?, ?)
            ON CONFLICT (node_name) DO UPDATE SET started_at = excluded.started_at, last_seen_at = now(),
                stopped_at = NULL, accepted_last_minute = excluded.accepted_last_minute,
                failed_last_minute = excluded.failed_last_minute, ack_p95_ms = excluded.ack_p95_ms,
                ack_max_ms = excluded.ack_max_ms, relay_backlog = excluded.relay_backlog
            """;
    private static final String STOPPED = "UPDATE cluster_node SET stopped_at = now(), last_seen_at = now() WHERE node_name = ?";

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Inject
    private NodeIdentity node;

    @Inject
    private NodeFiguresSource source;

    @Inject
    private Clock clock;

    @Inject
    @ConfigProperty(name = "wecom.cluster.heartbeat", defaultValue = "PT5S")
    Duration interval;

    private java.sql.Timestamp startedAt;
    private ScheduledFuture<?> beating;
    private volatile boolean warned;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        startedAt = java.sql.Timestamp.from(clock.instant());
        beating = scheduler.scheduleWithFixedDelay(this::beat, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("node " + node.name() + " reports to cluster_node every " + interval);
    }

    void beat() {
        NodeFigures figures = source.lastMinute(clock.instant());
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(BEAT)) {
            c.setAutoCommit(true);
            s.setQueryTimeout(5);
            s.setString(1, node.name());
            s.setTimestamp(2, startedAt);
            s.setLong(3, figures.accepted());
            s.setLong(4, figures.failed());
            setDouble(s, 5, figures.ackP95Ms());
            setDouble(s, 6, figures.ackMaxMs());
            s.setLong(7, figures.relayBacklog());
            s.executeUpdate();
            if (warned) {
                LOG.info("node heartbeat written again");
                warned = false;
            }
        } catch (SQLException | RuntimeException e) {
            if (!warned) { // once per outage, not every 5 s
                LOG.log(Level.WARNING, "node heartbeat not written (the dashboard shows this node silent): " + e);
                warned = true;
            }
        }
    }

    @PreDestroy
    void stop() {
        if (beating != null) {
            beating.cancel(false);
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(STOPPED)) {
            c.setAutoCommit(true);
            s.setQueryTimeout(2);
            s.setString(1, node.name());
            s.executeUpdate();
        } catch (SQLException | RuntimeException e) {
            LOG.fine("could not mark the node stopped: " + e);
        }
    }

    private static void setDouble(PreparedStatement s, int index, Double value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.DOUBLE);
        } else {
            s.setDouble(index, value);
        }
    }
}
