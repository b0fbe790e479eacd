package io.wecominbox.wecom;

import static io.wecominbox.JsonProviders.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A text message/send (bot replies): {@code touser}, {@code msgtype=text}, {@code agentid},
 * {@code text.content}, plus any other top-level field the caller wants sent, e.g.
 * {@code enable_duplicate_check=1}, which makes WeCom drop a repeat of the same message (within
 * {@code duplicate_check_interval}, default 1800 s) — the only guard against a "maybe sent" reply going out twice.
 *
 * @param agentId     empty = the app's configured {@code wecom.app.<name>.agent-id}
 * @param extraFields further top-level fields, sent as given
 */
public record MessageSendRequest(String touser, String content, Optional<String> agentId,
                                 Map<String, JsonValue> extraFields) {

    /** Fields this record sets itself; an extra field may not replace them. */
    private static final Set<String> OWN_FIELDS = Set.of("touser", "msgtype", "agentid", "text");

    public MessageSendRequest {
        Objects.requireNonNull(touser, "touser");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(agentId, "agentId");
        extraFields = Map.copyOf(extraFields);
        for (String field : extraFields.keySet()) {
            if (OWN_FIELDS.contains(field)) {
                throw new IllegalArgumentException("'" + field + "' is set by MessageSendRequest itself");
            }
        }
    }

    /** A text to one or more members ("a|b"), from the app's configured agent. */
    public static MessageSendRequest text(String touser, String content) {
        return new MessageSendRequest(touser, content, Optional.empty(), Map.of());
    }

    /** This request plus one more top-level field. */
    public MessageSendRequest withField(String name, JsonValue value) {
        Map<String, JsonValue> fields = new LinkedHashMap<>(extraFields);
        fields.put(name, value);
        return new MessageSendRequest(touser, content, agentId, fields);
    }

    public MessageSendRequest withAgentId(String agentId) {
        return new MessageSendRequest(touser, content, Optional.of(agentId), extraFields);
    }

    /** The request body; agentid goes out as a number, as WeCom documents it, when it is one. */
    JsonObject toJson(String resolvedAgentId) {
        JsonObjectBuilder body = JSON.createObjectBuilder().add("touser", touser).add("msgtype", "text");
        if (resolvedAgentId.matches("\\d{1,18}")) {
            body.add("agentid", Long.parseLong(resolvedAgentId));
        } else {
            body.add("agentid", resolvedAgentId);
        }
        body.add("text", JSON.createObjectBuilder().add("content", content));
        extraFields.forEach(body::add);
        return body.build();
    }
}
