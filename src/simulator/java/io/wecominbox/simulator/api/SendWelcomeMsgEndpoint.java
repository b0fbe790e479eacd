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
    public JsonObject handle(Map<String, String> query, String body, CallFacts facts) {
        AccessTokens.Check token = tokens.check(query.get("access_token"));
        facts.app = token.app().orElse(null);
        if (token.errcode() != WeComErrors.OK) {
            return JsonAnswers.error(token.errcode());
        }
        Optional<JsonObject> request = JsonAnswers.parseObject(body);
        if (request.isEmpty()) {
            return JsonAnswers.error(DATA_FORMAT_ERROR);
        }
        JsonObject json = request.get();
        String code = JsonAnswers.string(json, "welcome_code").orElse("");
        facts.welcomeCode = code.isEmpty() ? null : code;
        JsonValue text = json.get("text");
        if (text instanceof JsonObject t) {
            facts.content = JsonAnswers.string(t, "content").orElse(null);
        }
        JsonValue attachments = json.get("attachments");
        if (attachments != null) {
            facts.extraFields.put("attachments", attachments.toString());
        }
        if (code.isEmpty()) {
            return JsonAnswers.error(WeComErrors.WELCOME_CODE_MISSING);
        }
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
