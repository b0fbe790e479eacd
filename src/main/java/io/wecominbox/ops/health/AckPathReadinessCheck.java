package io.wecominbox.ops.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Whether this node can acknowledge a callback now: it stores it in callback_log (PostgreSQL up) or parks it in
 * the broker (PostgreSQL down, broker up). A load balancer routes on this check, not on readiness as a whole:
 * readiness is DOWN while the broker is away, yet the node still takes callbacks and must keep getting them.
 */
@Readiness
@ApplicationScoped
public class AckPathReadinessCheck implements HealthCheck {

    static final String NAME = "ack-path";

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource database;

    @Inject
    private BrokerRoundTrip broker;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named(NAME);
        String databaseError = databaseError();
        if (databaseError == null) {
            return response.up().withData("stores", "callback_log").build();
        }
        String brokerFailure = broker.failure();
        if (brokerFailure == null) {
            return response.up().withData("stores", "broker queue wecom.ingest.pending until the database is back")
                .withData("database", databaseError).build();
        }
        return response.down().withData("database", databaseError).withData("broker", brokerFailure).build();
    }

    private String databaseError() {
        try (Connection connection = database.getConnection()) {
            return connection.isValid(2) ? null : "not valid";
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
