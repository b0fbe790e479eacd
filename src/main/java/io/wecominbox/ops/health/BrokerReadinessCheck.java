package io.wecominbox.ops.health;

import io.wecominbox.messaging.JndiNames;
import io.wecominbox.relay.PublicationRelay;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only if the broker answers: browsing the probe queue is a real round trip (it creates a consumer
 * on the broker), bounded by the adapter's call timeout. While it is DOWN the ACK path still accepts callbacks
 * (it needs only PostgreSQL): the check says so, with the relay's backlog that waits for the broker.
 */
@Readiness
@ApplicationScoped
public class BrokerReadinessCheck implements HealthCheck {

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.PROBE_QUEUE)
    private Queue probeQueue;

    @Inject
    private PublicationRelay relay;

    @Override
    public HealthCheckResponse call() {
        PublicationRelay.Status relayed = relay.status();
        var response = HealthCheckResponse.named("broker")
            .withData("unpublished", relayed.backlog())
            .withData("oldestUnpublishedSeconds", Math.round(relayed.oldestUnpublishedSeconds()));
        try (JMSContext context = connectionFactory.createContext();
             QueueBrowser browser = context.createBrowser(probeQueue)) {
            browser.getEnumeration().hasMoreElements();
            return response.up().build();
        } catch (Exception e) {
            return response.down().withData("error", e.getClass().getSimpleName())
                .withData("ackPath", "accepting: callbacks are stored and published when the broker is back").build();
        }
    }
}
