package io.wecominbox.simulator.api;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** POST /cgi-bin/message/send : the app's replies to members; recorded with every field the caller set. */
final class MessageSendEndpoint implements ApiEndpoint {

    private static final Set<String> KNOWN = Set.of("touser", "text", "markdown");

    private final AccessTokens tokens;
    private final AtomicLong msgIds = new AtomicLong(1_000_000);

    MessageSendEndpoint(AccessTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public void describe(Map<String, String> query, String body, CallFacts facts) {
        facts.app = tokens.check(query.get("access_token")).app().orElse(null);
        JsonAnswers.parseObject(body).ifPresent(json -> {
            facts.touser = JsonAnswers.string(json, "touser").orElse(null);
            for (String holder : new String[] {"text", "markdown"}) {
                if (json.get(holder) instanceof JsonObject content) {
                    facts.content = JsonAnswers.string(content, "content").orElse(facts.content);
                }
            }
            for (Map.Entry<String, JsonValue> field : json.entrySet()) {
                if (!KNOWN.contains(field.getKey())) {
                    facts.extraFields.put(field.getKey(), field.getValue().toString());
                }
            }
        });
    }

    @Override
    public JsonObject handle(Map<String, String> query, String body, CallFacts facts) {
        int tokenCheck = tokens.check(query.get("access_token")).errcode();
        if (tokenCheck != WeComErrors.OK) {
            return JsonAnswers.error(tokenCheck);
        }
        Optional<JsonObject> request = JsonAnswers.parseObject(body);
        if (request.isEmpty()) {
            return JsonAnswers.error(SendWelcomeMsgEndpoint.DATA_FORMAT_ERROR);
        }
        JsonObject json = request.get();
        if (facts.touser == null && !json.containsKey("toparty") && !json.containsKey("totag")) {
            return JsonAnswers.error(WeComErrors.INVALID_PARAMETER);
        }
        return JsonAnswers.ok(WeComErrors.OK).add("invaliduser", "").add("invalidparty", "")
                .add("invalidtag", "").add("msgid", "sim-msg-" + msgIds.incrementAndGet()).build();
    }
}
