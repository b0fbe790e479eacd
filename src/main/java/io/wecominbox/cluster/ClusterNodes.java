package io.wecominbox.cluster;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Every node's last heartbeat, for the dashboard: which nodes run, which went silent, and their figures. */
@ApplicationScoped
public class ClusterNodes {

    // silence measured on the database's clock, as the heartbeats were written: nodes' clocks may differ
    private static final String ALL = """
            SELECT node_name, started_at, last_seen_at, stopped_at, extract(epoch FROM now() - last_seen_at),
                   accepted_last_minute, failed_last_minute, ack_p95_ms, ack_max_ms, relay_backlog
            FROM cluster_node ORDER BY node_name LIMIT 50
            """;

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Inject
    private NodeIdentity self;

    @Inject
    @ConfigProperty(name = "wecom.cluster.heartbeat", defaultValue = "PT5S")
    Duration heartbeat;

    public List<Node> all() throws SQLException {
        List<Node> nodes = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(ALL)) {
            c.setAutoCommit(true);
            s.setQueryTimeout(5);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    double silent = r.getDouble(5);
                    Instant stopped = instant(r.getTimestamp(4));
                    nodes.add(new Node(r.getString(1), state(stopped, silent), r.getString(1).equals(self.name()),
                        instant(r.getTimestamp(2)), instant(r.getTimestamp(3)), Math.round(silent),
                        r.getLong(6), r.getLong(7), number(r, 8), number(r, 9), r.getLong(10)));
                }
            }
        }
        return nodes;
    }

    /** RUNNING while beating; SILENT after three missed beats (dead, frozen or cut off); STOPPED when shut down. */
    String state(Instant stopped, double silentSeconds) {
        if (stopped != null) {
            return "STOPPED";
        }
        return silentSeconds > 3 * heartbeat.toSeconds() ? "SILENT" : "RUNNING";
    }

    private static Instant instant(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static Double number(ResultSet r, int column) throws SQLException {
        double value = r.getDouble(column);
        return r.wasNull() ? null : value;
    }

    /** One node as the dashboard shows it. */
    public record Node(String name, String state, boolean thisNode, Instant startedAt, Instant lastSeenAt,
                       long silentSeconds, long acceptedLastMinute, long failedLastMinute, Double ackP95Ms,
                       Double ackMaxMs, long relayBacklog) {
    }
}
