package io.wecominbox.ingest;

import io.wecominbox.callbacklog.IncomingDelivery;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * CDI event: a commit stored these callback_log rows, now waiting to be published. It names their event types
 * ("" for a row without one, as the relay's take counts it), so that only a relay lane with rows to take wakes.
 */
public record CallbackRowsCommitted(int rows, Set<String> eventTypes) {

    public CallbackRowsCommitted {
        eventTypes = Set.copyOf(eventTypes);
    }

    public static CallbackRowsCommitted of(List<IncomingDelivery> deliveries) {
        return new CallbackRowsCommitted(deliveries.size(), deliveries.stream()
            .map(d -> d.eventType() == null ? "" : d.eventType()).collect(Collectors.toSet()));
    }

    /** True when one of the rows has one of these types. */
    public boolean anyOf(Set<String> types) {
        return eventTypes.stream().anyMatch(types::contains);
    }

    /** True when one of the rows has a type none of these is (a row without a type included). */
    public boolean anyOtherThan(Set<String> types) {
        return !types.containsAll(eventTypes);
    }
}
