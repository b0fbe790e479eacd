package io.wecominbox.simulator.api;

import io.wecominbox.simulator.config.WeComApp;
import jakarta.json.JsonObject;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.function.Supplier;

/** GET /cgi-bin/gettoken?corpid=&corpsecret= : a fresh token when the secret matches one of the corp's apps. */
final class GetTokenEndpoint implements ApiEndpoint {

    private final Supplier<Collection<WeComApp>> apps;
    private final AccessTokens tokens;

    GetTokenEndpoint(Supplier<Collection<WeComApp>> apps, AccessTokens tokens) {
        this.apps = apps;
        this.tokens = tokens;
    }

    @Override
    public void describe(Map<String, String> query, String body, CallFacts facts) {
        facts.corpId = query.getOrDefault("corpid", "");
    }

    @Override
    public JsonObject handle(Map<String, String> query, String body, CallFacts facts) {
        String corpId = query.getOrDefault("corpid", "");
        String secret = query.getOrDefault("corpsecret", "");
        boolean corpKnown = false;
        for (WeComApp app : apps.get()) {
            if (app.corpId().equals(corpId)) {
                corpKnown = true;
                if (constantTimeEquals(app.secret(), secret)) {
                    facts.app = app.name();
                    return JsonAnswers.ok(WeComErrors.OK).add("access_token", tokens.issue(app.name()))
                            .add("expires_in", AccessTokens.LIFETIME.toSeconds()).build();
                }
            }
        }
        return JsonAnswers.error(corpKnown ? WeComErrors.INVALID_CREDENTIAL : WeComErrors.INVALID_CORP_ID);
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
