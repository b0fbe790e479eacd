package io.wecominbox.ops.replay;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Which callback_log deliveries a replay starts from; every given criterion must hold (AND). The events
 * replayed are the distinct event keys of those deliveries, each from its first delivery.
 *
 * @param from           received_at at or after (inclusive)
 * @param to             received_at before (exclusive)
 * @param app            callback_log.app
 * @param eventTypes     callback_log.event_type in this list
 * @param eventKeys      callback_log.event_key in this list ({app}:{key}, as in the table)
 * @param callbackLogIds callback_log_id in this list
 */
public record ReplaySelection(OffsetDateTime from, OffsetDateTime to, String app, List<String> eventTypes,
                              List<String> eventKeys, List<Long> callbackLogIds) {

    public ReplaySelection {
        eventTypes = eventTypes == null ? List.of() : List.copyOf(eventTypes);
        eventKeys = eventKeys == null ? List.of() : List.copyOf(eventKeys);
        callbackLogIds = callbackLogIds == null ? List.of() : List.copyOf(callbackLogIds);
    }

    public boolean isEmpty() {
        return from == null && to == null && app == null && eventTypes.isEmpty() && eventKeys.isEmpty()
            && callbackLogIds.isEmpty();
    }

    /** SQL condition over callback_log aliased {@code alias}, with its parameters in order. */
    public Condition condition(String alias) {
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
            // never a whole-table replay by accident
            throw new InvalidReplayRequest("a selection needs at least one criterion");
        }
        return new Condition(String.join(" AND ", terms), parameters);
    }

    /** As stored in replay_run.selection (absent criteria left out). */
    public JsonObject toJson() {
        JsonObjectBuilder json = Json.createObjectBuilder();
        if (from != null) {
            json.add("from", from.toString());
        }
        if (to != null) {
            json.add("to", to.toString());
        }
        if (app != null) {
            json.add("app", app);
        }
        if (!eventTypes.isEmpty()) {
            json.add("eventTypes", strings(eventTypes));
        }
        if (!eventKeys.isEmpty()) {
            json.add("eventKeys", strings(eventKeys));
        }
        if (!callbackLogIds.isEmpty()) {
            JsonArrayBuilder ids = Json.createArrayBuilder();
            callbackLogIds.forEach(ids::add);
            json.add("callbackLogIds", ids);
        }
        return json.build();
    }

    private static JsonArrayBuilder strings(List<String> values) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        values.forEach(array::add);
        return array;
    }

    /** A WHERE fragment and its JDBC parameters (arrays for the ANY terms). */
    public record Condition(String sql, List<Object> parameters) {
    }
}
