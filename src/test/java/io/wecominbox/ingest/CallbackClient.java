package io.wecominbox.ingest;

import io.wecominbox.testsupport.StackEnv;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Talks to the running server's callback URL the way WeCom does (raw query string, XML body). */
public final class CallbackClient {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade: keeps a streamed body really chunked
            .connectTimeout(Duration.ofSeconds(5)).build();

    public HttpResponse<String> post(String app, SignedCallbacks.Wire wire) {
        return post(app, wire.query(), wire.body());
    }

    public HttpResponse<String> post(String app, String query, String body) {
        return send(HttpRequest.newBuilder(uri(app, query)).header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Without a Content-Length (chunked), so the server only learns the size by reading. */
    public HttpResponse<String> postChunked(String app, String query, byte[] body) {
        return send(HttpRequest.newBuilder(uri(app, query)).header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));
    }

    public HttpResponse<String> get(String app, String query) {
        return send(HttpRequest.newBuilder(uri(app, query)).GET());
    }

    private static URI uri(String app, String query) {
        return URI.create(StackEnv.baseUrl() + "/wecom/callback/" + app + (query == null ? "" : "?" + query));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
