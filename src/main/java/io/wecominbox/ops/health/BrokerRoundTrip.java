package io.wecominbox.ops.health;

import io.wecominbox.messaging.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;

/**
 * Whether the broker answers now. Browsing the probe queue is a real round trip (it creates a consumer on the
 * broker), bounded by the adapter's call timeout; merely getting a connection is not: the pool may hand out one
 * whose broker is gone.
 */
@ApplicationScoped
public class BrokerRoundTrip {

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.PROBE_QUEUE)
    private Queue probeQueue;

    /** null when the broker answered, else the failure's class name (never its message: it may name hosts). */
    String failure() {
        try (JMSContext context = connectionFactory.createContext();
             QueueBrowser browser = context.createBrowser(probeQueue)) {
            browser.getEnumeration().hasMoreElements();
            return null;
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
