package io.wecominbox.simulator.api;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * POST /cgi-bin/message/send : the app's replies to members; recorded with every field the caller set.
 *
 * <p>WeCom's duplicate check is played too: with {@code enable_duplicate_check=1}, a message identical to one
 * already delivered (same app, agent, recipient and content) within {@code duplicate_check_interval} (default
 * 1800 s) is not delivered again. What WeCom answers then is not documented; the simulator answers errcode 0
 * and records the call as suppressed, so counts of delivered messages stay what a member would see.
 */
final class MessageSendEndpoint implements ApiEndpoint {

    private static final Set<String> KNOWN = Set.of("touser", "text", "markdown");
    static final Duration DEFAULT_DUPLICATE_CHECK_INTERVAL = Duration.ofSeconds(1800);

    private final AccessTokens tokens;
    private final Clock clock;
    private final AtomicLong msgIds = new AtomicLong(1_000_000);
    private final Map<String, Instant> lastDelivered = new HashMap<>();

    MessageSendEndpoint(AccessTokens tokens, Clock clock) {
        this.tokens = tokens;
        this.clock = clock;
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
        facts.duplicateSuppressed = !deliverUnlessDuplicate(json, facts);
        return JsonAnswers.ok(WeComErrors.OK).add("invaliduser", "").add("invalidparty", "")
                .add("invalidtag", "").add("msgid", "sim-msg-" + msgIds.incrementAndGet()).build();
    }

    /** Records the delivery and returns true, or returns false when the duplicate check drops it. */
    private synchronized boolean deliverUnlessDuplicate(JsonObject json, CallFacts facts) {
        String identity = facts.app + '\n' + json.get("agentid") + '\n' + facts.touser + '\n' + json.get("toparty")
                + '\n' + json.get("totag") + '\n' + facts.content;
        Instant now = clock.instant();
        Instant previous = lastDelivered.get(identity);
        if (flag(json.get("enable_duplicate_check")) && previous != null
                && now.isBefore(previous.plus(interval(json.get("duplicate_check_interval"))))) {
            return false;
        }
        lastDelivered.put(identity, now);
        return true;
    }

    private static boolean flag(JsonValue value) {
        return value instanceof JsonNumber n ? n.intValue() == 1 : value instanceof JsonString s && s.getString().equals("1");
    }

    private static Duration interval(JsonValue value) {
        if (value instanceof JsonNumber n) {
            return Duration.ofSeconds(n.longValue());
        }
        if (value instanceof JsonString s && s.getString().matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s.getString()));
        }
        return DEFAULT_DUPLICATE_CHECK_INTERVAL;
    }
}
