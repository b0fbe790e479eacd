package io.wecominbox.wecom;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Plain HTTP to WeCom with the JDK client: every exchange ends by min(connect + read timeout, caller's
 * deadline), and none starts once the deadline has passed. Never throws for network trouble; never puts a
 * URL (which carries the token or the secret) into a description.
 */
final class WeComHttp {

    /** Below this, an exchange cannot finish anyway: do not start it. */
    static final Duration MIN_USEFUL_TIME = Duration.ofMillis(20);
    private static final Pattern SECRET_PARAMETER = Pattern.compile("(access_token|corpsecret)=[^&\\s]*");

    private final HttpClient client;
    private final WeComApiSettings settings;
    private final Clock clock;

    WeComHttp(WeComApiSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        // HTTP/1.1: no h2c upgrade dance with proxies or the simulator; no redirects to follow with a token.
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout()).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    HttpResult get(URI uri, Instant deadline) {
        return exchange(HttpRequest.newBuilder(uri).GET(), deadline);
    }

    HttpResult postJson(URI uri, String json, Instant deadline) {
        return exchange(HttpRequest.newBuilder(uri).header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)), deadline);
    }

    /** Time left until the deadline by this client's clock (negative when past). */
    Duration remaining(Instant deadline) {
        return Duration.between(clock.instant(), deadline);
    }

    private HttpResult exchange(HttpRequest.Builder request, Instant deadline) {
        Duration remaining = remaining(deadline);
        if (remaining.compareTo(MIN_USEFUL_TIME) < 0) {
            return new HttpResult.NotStarted("deadline passed before the call");
        }
        Duration limit = min(remaining, settings.connectTimeout().plus(settings.readTimeout()));
        CompletableFuture<HttpResponse<String>> pending = client.sendAsync(request.timeout(limit).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            HttpResponse<String> response = pending.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return new HttpResult.Answered(response.statusCode(), response.body());
        } catch (TimeoutException e) {
            pending.cancel(true);
            return new HttpResult.Failed("timed out after " + limit.toMillis() + " ms", true);
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            return new HttpResult.Failed("interrupted while waiting for WeCom", true);
        } catch (ExecutionException e) {
            return failure(e.getCause());
        }
    }

    private static HttpResult failure(Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return new HttpResult.Failed("connect timed out", false);
        }
        if (cause instanceof HttpTimeoutException) {
            return new HttpResult.Failed("timed out waiting for the answer", true);
        }
        if (cause instanceof ConnectException) {
            return new HttpResult.Failed("cannot connect (" + scrub(cause.getMessage()) + ")", false);
        }
        if (cause instanceof IOException) {
            // The request may have been written before the connection broke: WeCom may have acted on it.
            return new HttpResult.Failed("connection lost (" + cause.getClass().getSimpleName() + ": "
                    + scrub(cause.getMessage()) + ")", true);
        }
        return new HttpResult.Failed("HTTP client failed (" + cause.getClass().getSimpleName() + ": "
                + scrub(cause.getMessage()) + ")", true);
    }

    /** Exception messages may quote a URL; its token or secret must not travel on into logs. */
    static String scrub(String message) {
        return message == null ? "" : SECRET_PARAMETER.matcher(message).replaceAll("$1=***");
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
