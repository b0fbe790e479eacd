package io.wecominbox.devstack.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The callback URL as WeCom calls it: POST {base}/wecom/callback/{app}?msg_signature..., XML body. A delivery
 * counts as acknowledged only for HTTP 200 with body "success" (what WeCom itself checks).
 */
final class IngestTarget implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String base;
    private final ExecutorService callbacks = Executors.newFixedThreadPool(2, daemon("bench-http"));
    private final HttpClient http;

    IngestTarget(String base) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).executor(callbacks).build();
    }

    /** {@link #ACK}, else the HTTP status (200 with another body counts as 299), or {@link #NO_ANSWER}. */
    static final int ACK = 0;
    static final int NO_ANSWER = -1;

    CompletableFuture<Integer> postAsync(CallbackFeed.Callback callback) {
        return http.sendAsync(request(callback), HttpResponse.BodyHandlers.ofString())
                .handle((response, failure) -> failure == null ? outcome(response) : NO_ANSWER);
    }

    /** The same with its own deadline: WeCom waits 5 s from its send, then drops the exchange. */
    CompletableFuture<Integer> postAsync(CallbackFeed.Callback callback, Duration timeout) {
        return http.sendAsync(request(callback, timeout), HttpResponse.BodyHandlers.ofString())
                .handle((response, failure) -> failure == null ? outcome(response) : NO_ANSWER);
    }

    int post(CallbackFeed.Callback callback) {
        try {
            return outcome(http.send(request(callback), HttpResponse.BodyHandlers.ofString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return NO_ANSWER;
        } catch (Exception e) {
            return NO_ANSWER;
        }
    }

    private HttpRequest request(CallbackFeed.Callback callback) {
        return request(callback, TIMEOUT);
    }

    private HttpRequest request(CallbackFeed.Callback callback, Duration timeout) {
        URI uri = URI.create(base + "/wecom/callback/" + callback.app() + "?" + callback.wire().query());
        return HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofString(callback.wire().body())).build();
    }

    private static int outcome(HttpResponse<String> response) {
        if (response.statusCode() == 200) {
            return "success".equals(response.body()) ? ACK : 299;
        }
        return response.statusCode();
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        callbacks.shutdownNow();
    }
}
