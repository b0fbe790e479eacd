package io.wecominbox.ops.health;

import io.wecominbox.handler.HandlerRoute;
import io.wecominbox.ops.health.BrokerTopology.Divert;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Does the broker deliver a handler its events? Its queue must exist and be fed from the events address by
 * diverts whose filters select exactly the event types the handler declares. The answer names what is wrong,
 * so an operator can fix the broker (docs/deploy.md) without reading code.
 */
final class HandlerRouteCheck {

    private HandlerRouteCheck() {
    }

    /**
     * @param queue the broker queue the handler's consumer listens on (from its jmsQueue in server.xml)
     * @param eventsAddress the address the ingest publishes to (from the events jmsTopic)
     * @return empty if the route is complete, else what is missing or wrong
     */
    static Optional<String> problem(HandlerRoute route, String queue, String eventsAddress, BrokerTopology broker) {
        String address = broker.queues().get(queue);
        if (address == null) {
            return Optional.of("queue " + queue + " does not exist");
        }
        Set<String> routed = new TreeSet<>();
        for (Divert d : broker.diverts()) {
            if (eventsAddress.equals(d.address()) && address.equals(d.forwardingAddress())) {
                Optional<Set<String>> types = HandlerRoute.typesOf(d.filter());
                if (types.isEmpty()) {
                    return Optional.of("divert " + d.name() + " to " + address + " has a filter this check cannot"
                            + " read (" + d.filter() + "); expected " + route.filter());
                }
                routed.addAll(types.get());
            }
        }
        if (routed.isEmpty()) {
            return Optional.of("no divert from " + eventsAddress + " to " + address + " (expected " + route.divert()
                    + " with filter " + route.filter() + ")");
        }
        if (!routed.equals(route.eventTypes())) {
            Set<String> missing = new TreeSet<>(route.eventTypes());
            missing.removeAll(routed);
            Set<String> extra = new TreeSet<>(routed);
            extra.removeAll(route.eventTypes());
            return Optional.of("diverts to " + address + " select " + routed + " but the handler takes "
                    + route.eventTypes() + (missing.isEmpty() ? "" : "; never delivered: " + missing)
                    + (extra.isEmpty() ? "" : "; delivered for nothing: " + extra));
        }
        return Optional.empty();
    }
}
