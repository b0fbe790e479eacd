package io.wecominbox.ops.health;

import io.wecominbox.relay.PublicationRelay;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only if the broker answers ({@link BrokerRoundTrip}). While it is DOWN the ACK path still accepts callbacks
 * (it needs only PostgreSQL): the check says so, with the relay's backlog that waits for the broker.
 */
@Readiness
@ApplicationScoped
public class BrokerReadinessCheck implements DetailedHealthCheck {

    @Inject
    private BrokerRoundTrip broker;

    @Inject
    private PublicationRelay relay;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthFinding finding() {
        return background.latest("broker", this::probe);
    }

    HealthFinding probe() {
        PublicationRelay.Status relayed = relay.status();
        var finding = HealthFinding.named("broker")
            .detail("unpublished", relayed.backlog())
            .detail("oldestUnpublishedSeconds", Math.round(relayed.oldestUnpublishedSeconds()));
        String failure = broker.failure();
        if (failure == null) {
            return finding.up();
        }
        return finding.detail("error", failure)
            .detail("ackPath", "see check ack-path: callbacks wait in callback_log while the broker is away")
            .down("unreachable");
    }
}
