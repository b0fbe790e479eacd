package io.wecominbox.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for black-box tests against the running server. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    public static HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    public static HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path)).GET());
    }

    /** Null when the server does not answer at all (down, or restarting). */
    public static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
