package io.wecominbox.simulator.api;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * POST /cgi-bin/externalcontact/send_welcome_msg : sends the welcome once per code, within its 20 s window.
 * The used code answers 41051 afterwards, which is how a client learns that an earlier try went through.
 */
final class SendWelcomeMsgEndpoint implements ApiEndpoint {

    static final int MAX_TEXT_BYTES = 4000;
    static final int MAX_ATTACHMENTS = 9;
    static final int DATA_FORMAT_ERROR = 47001;

    private final AccessTokens tokens;
    private final WelcomeCodes codes;

    SendWelcomeMsgEndpoint(AccessTokens tokens, WelcomeCodes codes) {
        this.tokens = tokens;
        this.codes = codes;
    }

    @Override
    public void describe(Map<String, String> query, String body, CallFacts facts) {
        facts.app = tokens.check(query.get("access_token")).app().orElse(null);
        JsonAnswers.parseObject(body).ifPresent(json -> {
            facts.welcomeCode = JsonAnswers.string(json, "welcome_code").filter(c -> !c.isEmpty()).orElse(null);
            if (json.get("text") instanceof JsonObject text) {
                facts.content = JsonAnswers.string(text, "content").orElse(null);
            }
            // attachments and anything WeCom does not define (e.g. wecom_inbox_batch_id), as raw JSON
            json.forEach((name, value) -> {
                if (!name.equals("welcome_code") && !name.equals("text")) {
                    facts.extraFields.put(name, value.toString());
                }
            });
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
            return JsonAnswers.error(DATA_FORMAT_ERROR);
        }
        String code = facts.welcomeCode;
        if (code == null) {
            return JsonAnswers.error(WeComErrors.WELCOME_CODE_MISSING);
        }
        JsonValue attachments = request.get().get("attachments");
        if ((facts.content != null && facts.content.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES)
                || (attachments instanceof JsonArray a && a.size() > MAX_ATTACHMENTS)) {
            return JsonAnswers.error(WeComErrors.INVALID_PARAMETER);
        }
        boolean issuedToAnotherApp = codes.state(code).map(s -> !s.app().equals(facts.app)).orElse(false);
        if (issuedToAnotherApp) {
            return JsonAnswers.error(WeComErrors.WELCOME_CODE_INVALID);
        }
        return JsonAnswers.error(codes.use(code));
    }
}
