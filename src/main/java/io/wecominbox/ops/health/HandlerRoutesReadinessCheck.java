package io.wecominbox.ops.health;

import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.handler.HandlerRoute;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.ops.metrics.BrokerManagement;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only if the broker routes every deployed handler its events: the handler's queue exists and diverts
 * from the events address feed it exactly the types the handler declares. Without this a broker lacking the
 * application's configuration (src/main/broker/wecom-inbox-broker.xml) accepts every callback and the handlers
 * silently get nothing. Reads the broker's management API (two HTTP reads, 3 s timeout each) every
 * {@code wecom.health.handler-routes.period-seconds} while the routes are whole, and every second while they are
 * not: routes change only with the broker's configuration, and each wildcard read costs the broker ~8 ms of CPU.
 * Without management access it is DOWN, since the routes cannot be verified.
 */
@Readiness
@ApplicationScoped
public class HandlerRoutesReadinessCheck implements DetailedHealthCheck {

    @Inject
    HandlerCatalog catalog;

    @Inject
    BrokerManagement management;

    @Resource(lookup = JndiNames.EVENTS_TOPIC)
    private Topic eventsTopic;

    @Inject
    private ProbedInBackground background;

    @Inject
    @ConfigProperty(name = "wecom.health.handler-routes.period-seconds", defaultValue = "30")
    long periodSeconds;

    @Override
    public HealthFinding finding() {
        return background.latest("handler-routes", periodSeconds, this::probe);
    }

    HealthFinding probe() {
        HealthFinding.Builder finding = HealthFinding.named("handler-routes");
        if (management.client().isEmpty()) {
            return finding.detail("error", "cannot verify the broker's handler routes: broker management is "
                    + management.unavailable()).down("management_not_configured");
        }
        BrokerTopology broker;
        String eventsAddress;
        try {
            eventsAddress = eventsTopic.getTopicName();
            broker = BrokerTopology.read(management.client().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return finding.detail("error", "interrupted").down("interrupted");
        } catch (Exception e) {
            return finding.detail("error", "cannot read the broker's management API: " + e.getMessage())
                    .down("management_unreadable");
        }
        boolean up = true;
        for (EventHandler handler : catalog.handlers()) {
            HandlerRoute route = HandlerRoute.of(handler);
            Optional<String> problem = queueOf(handler.name())
                    .map(queue -> HandlerRouteCheck.problem(route, queue, eventsAddress, broker))
                    .orElse(Optional.of("no JMS queue " + JndiNames.handlerQueue(handler.name())
                        + " (configDropins/defaults/wecom-handlers.xml)"));
            finding.detail(handler.name(), problem.orElse("routed"));
            up &= problem.isEmpty();
        }
        return finding.status(up, "routes_missing");
    }

    /** The broker queue the handler's consumer listens on, as server.xml's jmsQueue names it. */
    private static Optional<String> queueOf(String handler) {
        try {
            return Optional.of(((Queue) new InitialContext().lookup(JndiNames.handlerQueue(handler))).getQueueName());
        } catch (NamingException | JMSException | ClassCastException e) {
            return Optional.empty();
        }
    }
}
