package io.wecominbox.ops.health;

import io.wecominbox.relay.PublicationRelay;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only if the broker answers ({@link BrokerRoundTrip}). While it is DOWN the ACK path still accepts callbacks
 * (it needs only PostgreSQL): the check says so, with the relay's backlog that waits for the broker.
 */
@Readiness
@ApplicationScoped
public class BrokerReadinessCheck implements HealthCheck {

    @Inject
    private BrokerRoundTrip broker;

    @Inject
    private PublicationRelay relay;

    @Override
    public HealthCheckResponse call() {
        PublicationRelay.Status relayed = relay.status();
        var response = HealthCheckResponse.named("broker")
            .withData("unpublished", relayed.backlog())
            .withData("oldestUnpublishedSeconds", Math.round(relayed.oldestUnpublishedSeconds()));
        String failure = broker.failure();
        if (failure == null) {
            return response.up().build();
        }
        return response.down().withData("error", failure)
            .withData("ackPath", "see check ack-path: callbacks wait in callback_log while the broker is away").build();
    }
}
