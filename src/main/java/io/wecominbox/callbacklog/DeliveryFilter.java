package io.wecominbox.callbacklog;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Which callback_log deliveries to select: every given criterion must hold (AND); a null or empty one is left out.
 *
 * @param from           received_at at or after (inclusive)
 * @param to             received_at before (exclusive)
 * @param app            callback_log.app
 * @param eventTypes     callback_log.event_type in this list
 * @param eventKeys      callback_log.event_key in this list ({app}:{key}, as in the table)
 * @param callbackLogIds callback_log_id in this list
 */
public record DeliveryFilter(OffsetDateTime from, OffsetDateTime to, String app, List<String> eventTypes,
                             List<String> eventKeys, List<Long> callbackLogIds) {

    public DeliveryFilter {
        eventTypes = eventTypes == null ? List.of() : List.copyOf(eventTypes);
        eventKeys = eventKeys == null ? List.of() : List.copyOf(eventKeys);
        callbackLogIds = callbackLogIds == null ? List.of() : List.copyOf(callbackLogIds);
    }

    public boolean isEmpty() {
        return from == null && to == null && app == null && eventTypes.isEmpty() && eventKeys.isEmpty()
            && callbackLogIds.isEmpty();
    }

    /** The WHERE fragment over callback_log aliased {@code alias}, with its parameters in order. */
    Condition condition(String alias) {
        List<String> terms = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        if (from != null) {
            terms.add(alias + ".received_at >= ?");
            parameters.add(from);
        }
        if (to != null) {
            terms.add(alias + ".received_at < ?");
            parameters.add(to);
        }
        if (app != null) {
            terms.add(alias + ".app = ?");
            parameters.add(app);
        }
        if (!eventTypes.isEmpty()) {
            terms.add(alias + ".event_type = ANY (?)");
            parameters.add(eventTypes.toArray(String[]::new));
        }
        if (!eventKeys.isEmpty()) {
            terms.add(alias + ".event_key = ANY (?)");
            parameters.add(eventKeys.toArray(String[]::new));
        }
        if (!callbackLogIds.isEmpty()) {
            terms.add(alias + ".callback_log_id = ANY (?)");
            parameters.add(callbackLogIds.toArray(Long[]::new));
        }
        if (terms.isEmpty()) {
            // never the whole table by accident
            throw new IllegalArgumentException("a delivery filter needs at least one criterion");
        }
        return new Condition(String.join(" AND ", terms), parameters);
    }

    /** A WHERE fragment and its JDBC parameters (arrays for the ANY terms). */
    record Condition(String sql, List<Object> parameters) {
    }
}
