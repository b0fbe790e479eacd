package io.wecominbox.ops.replay;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.callbacklog.DeliveryFilter;
import io.wecominbox.dedup.DedupKey;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The body of POST /api/ops/replays, checked field by field so a mistake gets a 400 that names it (an
 * unknown field too: a typo such as "handler" must not silently widen a replay to every handler).
 *
 * @param selection the callback_log deliveries whose events are replayed (each from its first delivery)
 * @param handlers handler names; empty = every handler that takes the selected events' types
 * @param batchId  null = through dedup as usual; else a forced re-run, once per handler and batch
 * @param maxRate  messages per second asked for; null = the configured maximum
 */
public record ReplayRequest(DeliveryFilter selection, List<String> handlers, String batchId, String reason,
                            Integer maxRate) {

    static final int MAX_LIST = 10_000;
    static final int MAX_REASON = 500;
    private static final Set<String> FIELDS = Set.of("from", "to", "app", "eventTypes", "eventKeys",
        "callbackLogIds", "handlers", "batchId", "reason", "maxRate");

    /** The selection as stored in replay_run.selection (absent criteria left out). */
    public JsonObject selectionJson() {
        JsonObjectBuilder json = JSON.createObjectBuilder();
        if (selection.from() != null) {
            json.add("from", selection.from().toString());
        }
        if (selection.to() != null) {
            json.add("to", selection.to().toString());
        }
        if (selection.app() != null) {
            json.add("app", selection.app());
        }
        if (!selection.eventTypes().isEmpty()) {
            json.add("eventTypes", JSON.createArrayBuilder(selection.eventTypes()));
        }
        if (!selection.eventKeys().isEmpty()) {
            json.add("eventKeys", JSON.createArrayBuilder(selection.eventKeys()));
        }
        if (!selection.callbackLogIds().isEmpty()) {
            JsonArrayBuilder ids = JSON.createArrayBuilder();
            selection.callbackLogIds().forEach(ids::add);
            json.add("callbackLogIds", ids);
        }
        return json.build();
    }

    public static ReplayRequest parse(String body) {
        if (body == null || body.isBlank()) {
            throw new InvalidReplayRequest("a JSON object is required, e.g. {\"eventKeys\": [\"customer:msg:1\"]}");
        }
        JsonValue value;
        try (JsonReader reader = JSON.createReader(new StringReader(body))) {
            value = reader.readValue();
        } catch (JsonException e) {
            throw new InvalidReplayRequest("not valid JSON: " + e.getMessage());
        }
        if (!(value instanceof JsonObject json)) {
            throw new InvalidReplayRequest("the body must be a JSON object");
        }
        for (String field : json.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new InvalidReplayRequest("unknown field " + field + "; known: " + new java.util.TreeSet<>(FIELDS));
            }
        }
        OffsetDateTime from = time(json, "from");
        OffsetDateTime to = time(json, "to");
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidReplayRequest("from must be before to");
        }
        DeliveryFilter selection = new DeliveryFilter(from, to, text(json, "app"), strings(json, "eventTypes"),
            strings(json, "eventKeys"), ids(json, "callbackLogIds"));
        if (selection.isEmpty()) {
            throw new InvalidReplayRequest("select at least one of from, to, app, eventTypes, eventKeys, callbackLogIds");
        }
        List<String> handlers = strings(json, "handlers");
        for (String handler : handlers) {
            try {
                DedupKey.requireHandlerName(handler);
            } catch (IllegalArgumentException e) {
                throw new InvalidReplayRequest("handlers: " + e.getMessage());
            }
        }
        String batchId = text(json, "batchId");
        if (batchId != null && !DedupKey.isBatchId(batchId)) {
            throw new InvalidReplayRequest(DedupKey.BATCH_ID_RULE);
        }
        String reason = text(json, "reason");
        if (reason != null && reason.length() > MAX_REASON) {
            throw new InvalidReplayRequest("reason is limited to " + MAX_REASON + " characters");
        }
        Integer maxRate = null;
        if (json.containsKey("maxRate") && json.get("maxRate").getValueType() != JsonValue.ValueType.NULL) {
            JsonNumber rate = typed(json, "maxRate", JsonNumber.class, "a whole number of messages per second");
            if (!rate.isIntegral() || rate.longValue() < 1 || rate.longValue() > Integer.MAX_VALUE) {
                throw new InvalidReplayRequest("maxRate must be a whole number of messages per second, at least 1");
            }
            maxRate = rate.intValue();
        }
        return new ReplayRequest(selection, handlers, batchId, reason, maxRate);
    }

    private static OffsetDateTime time(JsonObject json, String field) {
        String value = text(json, field);
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidReplayRequest(field + " must be an ISO-8601 time with offset, e.g. 2026-12-01T08:00:00Z");
        }
    }

    private static String text(JsonObject json, String field) {
        if (!json.containsKey(field) || json.get(field).getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        String value = typed(json, field, JsonString.class, "a string").getString().strip();
        if (value.isEmpty()) {
            throw new InvalidReplayRequest(field + " must not be blank (leave it out instead)");
        }
        return value;
    }

    private static List<String> strings(JsonObject json, String field) {
        List<String> values = new ArrayList<>();
        for (JsonValue value : array(json, field)) {
            if (!(value instanceof JsonString s) || s.getString().isBlank()) {
                throw new InvalidReplayRequest(field + " must be a list of non-blank strings");
            }
            values.add(s.getString().strip());
        }
        return List.copyOf(new LinkedHashSet<>(values));
    }

    private static List<Long> ids(JsonObject json, String field) {
        List<Long> values = new ArrayList<>();
        for (JsonValue value : array(json, field)) {
            if (!(value instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < 1) {
                throw new InvalidReplayRequest(field + " must be a list of positive whole numbers");
            }
            values.add(n.longValue());
        }
        return List.copyOf(new LinkedHashSet<>(values));
    }

    private static JsonArray array(JsonObject json, String field) {
        if (!json.containsKey(field) || json.get(field).getValueType() == JsonValue.ValueType.NULL) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        JsonArray array = typed(json, field, JsonArray.class, "a list");
        if (array.size() > MAX_LIST) {
            throw new InvalidReplayRequest(field + " has more than " + MAX_LIST + " entries; use a time range");
        }
        return array;
    }

    private static <T extends JsonValue> T typed(JsonObject json, String field, Class<T> type, String what) {
        JsonValue value = json.get(field);
        if (!type.isInstance(value)) {
            throw new InvalidReplayRequest(field + " must be " + what);
        }
        return type.cast(value);
    }
}
