package io.wecominbox.ops.health;

import io.wecominbox.messaging.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only if the broker answers: browsing the probe queue is a real round trip (it creates a consumer
 * on the broker), bounded by the adapter's call timeout.
 */
@Readiness
@ApplicationScoped
public class BrokerReadinessCheck implements HealthCheck {

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.PROBE_QUEUE)
    private Queue probeQueue;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("broker");
        try (JMSContext context = connectionFactory.createContext();
             QueueBrowser browser = context.createBrowser(probeQueue)) {
            browser.getEnumeration().hasMoreElements();
            return response.up().build();
        } catch (Exception e) {
            return response.down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
