package io.wecominbox.ops.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.Readiness;

/**
 * Whether this node can acknowledge a callback now: it stores it in callback_log (PostgreSQL up) or parks it in
 * the broker (PostgreSQL down, broker up). A load balancer routes on this check, not on readiness as a whole:
 * readiness is DOWN while the broker is away, yet the node still takes callbacks and must keep getting them.
 */
@Readiness
@ApplicationScoped
public class AckPathReadinessCheck implements DetailedHealthCheck {

    static final String NAME = "ack-path";

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource database;

    @Inject
    private BrokerRoundTrip broker;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthFinding finding() {
        return background.latest(NAME, this::probe);
    }

    HealthFinding probe() {
        var finding = HealthFinding.named(NAME);
        String databaseError = databaseError();
        if (databaseError == null) {
            return finding.detail("stores", "callback_log").up();
        }
        String brokerFailure = broker.failure();
        if (brokerFailure == null) {
            return finding.detail("stores", "broker queue wecom.ingest.pending until the database is back")
                .detail("database", databaseError).up();
        }
        return finding.detail("database", databaseError).detail("broker", brokerFailure).down("nowhere_to_store");
    }

    private String databaseError() {
        try (Connection connection = database.getConnection()) {
            return connection.isValid(2) ? null : "not valid";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
