package io.wecominbox.wecom;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link WeComApi} over the JDK HTTP client with a per-app token cache. Retries only the one case where
 * WeCom certainly did nothing: a refused token (40001 / 40014 / 42001), once, with a fresh token. Every
 * other retry is the caller's, because only the caller knows whether a "maybe sent" may be sent again.
 */
public final class HttpWeComApi implements WeComApi {

    static final String SEND_WELCOME_MSG = "/cgi-bin/externalcontact/send_welcome_msg";
    static final String MESSAGE_SEND = "/cgi-bin/message/send";
    static final String GET_FOLLOW_USER_LIST = "/cgi-bin/externalcontact/get_follow_user_list";
    static final String BATCH_GET_BY_USER = "/cgi-bin/externalcontact/batch/get_by_user";
    /** WeCom's bounds for batch/get_by_user. */
    public static final int MAX_USERS_PER_CALL = 100;
    public static final int MAX_PAGE_LIMIT = 100;
    private static final Logger LOG = Logger.getLogger(HttpWeComApi.class.getName());

    private final WeComApiSettings settings;
    private final AppCredentials credentials;
    private final Clock clock;
    private final WeComHttp http;
    private final AccessTokenCache tokens;

    public HttpWeComApi(WeComApiSettings settings, AppCredentials credentials, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.http = new WeComHttp(settings, clock);
        this.tokens = new AccessTokenCache(new GetTokenCall(http, settings.baseUrl()), settings, clock);
    }

    @Override
    public WeComCallOutcome sendWelcomeMessage(String app, String welcomeCode, WelcomeContent content,
                                               Instant deadline, String batchId) {
        Objects.requireNonNull(welcomeCode, "welcomeCode");
        Objects.requireNonNull(content, "content");
        return call(app, SEND_WELCOME_MSG, c -> batchId == null ? content.toJson(welcomeCode)
                : JSON.createObjectBuilder(content.toJson(welcomeCode)).add(BATCH_ID_FIELD, batchId).build(),
            deadline);
    }

    @Override
    public WeComCallOutcome sendMessage(String app, MessageSendRequest request, Instant deadline) {
        Objects.requireNonNull(request, "request");
        return call(app, MESSAGE_SEND, c -> request.agentId().or(c::agentId).map(request::toJson).orElse(null),
                deadline);
    }

    @Override
    public WeComCallOutcome followUserList(String app, Instant deadline) {
        return call(app, GET_FOLLOW_USER_LIST, null, deadline);
    }

    @Override
    public WeComCallOutcome customersOfMembers(String app, List<String> userIds, String cursor, int limit,
                                               Instant deadline) {
        if (userIds.isEmpty() || userIds.size() > MAX_USERS_PER_CALL || limit < 1 || limit > MAX_PAGE_LIMIT) {
            throw new IllegalArgumentException("batch/get_by_user takes 1.." + MAX_USERS_PER_CALL
                + " userids and a limit of 1.." + MAX_PAGE_LIMIT);
        }
        JsonObject json = JSON.createObjectBuilder().add("userid_list", JSON.createArrayBuilder(userIds))
            .add("cursor", cursor == null ? "" : cursor).add("limit", limit).build();
        return call(app, BATCH_GET_BY_USER, c -> json, deadline);
    }

    /** {@code body} null: a GET without a body. */
    private WeComCallOutcome call(String app, String path, RequestBody body, Instant deadline) {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(deadline, "deadline");
        long started = System.nanoTime();
        WeComCallOutcome outcome = attempt(app, path, body, earliest(deadline, clock.instant().plus(settings.callBudget())));
        outcome = outcome.withLatency(Duration.ofNanos(System.nanoTime() - started));
        log(app, path, outcome);
        return outcome;
    }

    private WeComCallOutcome attempt(String app, String path, RequestBody body, Instant deadline) {
        Optional<WeComCredentials> found = credentials.find(app);
        if (found.isEmpty()) {
            return WeComCallOutcome.local(Kind.GIVE_UP, "no WeCom credentials for app " + app + " (set "
                    + ConfigAppCredentials.missingHint(app) + ")", 0, false);
        }
        WeComCredentials creds = found.get();
        JsonObject json = body == null ? null : body.of(creds);
        if (body != null && json == null) {
            return WeComCallOutcome.local(Kind.GIVE_UP, "no agent id for app " + app + " (set wecom.app." + app
                    + ".agent-id or give one in the request)", 0, false);
        }
        WeComCallOutcome outcome = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            String token;
            try {
                token = tokens.token(creds, deadline);
            } catch (AccessTokenUnavailable e) {
                return e.outcome();
            }
            URI uri = URI.create(settings.baseUrl() + path + "?access_token="
                    + URLEncoder.encode(token, StandardCharsets.UTF_8));
            outcome = WeComReplies.outcome(json == null ? http.get(uri, deadline)
                    : http.postJson(uri, json.toString(), deadline));
            boolean tokenRefused = outcome.errcode().isPresent()
                    && WeComErrorCodes.tokenRefused(outcome.errcode().getAsInt());
            if (!tokenRefused) {
                return outcome;
            }
            // WeCom refused the token before doing anything: a fresh token may be tried once.
            tokens.invalidate(app, token);
        }
        return outcome;
    }

    private static void log(String app, String path, WeComCallOutcome outcome) {
        Level level = outcome.kind() == Kind.GIVE_UP ? Level.WARNING
                : outcome.kind() == Kind.RETRY ? Level.INFO : Level.FINE;
        LOG.log(level, () -> "WeCom " + path + " for app " + app + ": " + outcome);
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** Builds the request body once the app's credentials (agent id) are known; null when it cannot. */
    @FunctionalInterface
    private interface RequestBody {
        JsonObject of(WeComCredentials credentials);
    }
}
