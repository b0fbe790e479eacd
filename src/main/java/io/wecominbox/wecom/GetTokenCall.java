package io.wecominbox.wecom;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/** GET /cgi-bin/gettoken?corpid=&corpsecret= over {@link WeComHttp}. */
final class GetTokenCall implements TokenSource {

    static final String PATH = "/cgi-bin/gettoken";
    /** WeCom's documented lifetime, used if an answer leaves expires_in out. */
    private static final Duration DEFAULT_LIFETIME = Duration.ofSeconds(7200);

    private final WeComHttp http;
    private final URI baseUrl;

    GetTokenCall(WeComHttp http, URI baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    @Override
    public TokenFetch fetch(WeComCredentials credentials, Instant deadline) {
        URI uri;
        try {
            uri = URI.create(baseUrl + PATH + "?corpid=" + encode(credentials.corpId())
                    + "&corpsecret=" + encode(credentials.secret()));
        } catch (IllegalArgumentException e) {
            // the exception's message would quote the URL, secret included
            return new TokenFetch.Refused(WeComCallOutcome.local(Kind.GIVE_UP, "invalid gettoken URL", 0, false), false);
        }
        HttpResult result = http.get(uri, deadline);
        WeComCallOutcome outcome = WeComReplies.outcome(result);
        boolean attempted = !(result instanceof HttpResult.NotStarted);
        if (outcome.kind() == Kind.DONE) {
            JsonObject reply = outcome.reply();
            if (reply.get("access_token") instanceof JsonString token && !token.getString().isEmpty()) {
                return new TokenFetch.Issued(token.getString(), lifetime(reply));
            }
            return new TokenFetch.Refused(WeComCallOutcome.local(Kind.RETRY, "gettoken answered without a token",
                    outcome.httpStatus(), false), attempted);
        }
        // Never hand the gettoken reply on: on success it holds the token.
        WeComCallOutcome withoutReply = new WeComCallOutcome(gettokenKind(outcome), outcome.errcode(),
                "gettoken: " + outcome.errmsg(), outcome.httpStatus(), outcome.latency(), false,
                JsonValue.EMPTY_JSON_OBJECT);
        return new TokenFetch.Refused(withoutReply, attempted);
    }

    /** 40001 on gettoken means a wrong secret, not a stale token: retrying cannot fix it. */
    private static Kind gettokenKind(WeComCallOutcome outcome) {
        boolean credentialsRejected = outcome.errcode().isPresent()
                && WeComErrorCodes.tokenRefused(outcome.errcode().getAsInt());
        return credentialsRejected ? Kind.GIVE_UP : outcome.kind();
    }

    private static Duration lifetime(JsonObject reply) {
        return reply.get("expires_in") instanceof JsonNumber n && n.longValue() > 0
                ? Duration.ofSeconds(n.longValue()) : DEFAULT_LIFETIME;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
