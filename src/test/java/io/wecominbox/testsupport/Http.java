package io.wecominbox.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A small HTTP client for black-box tests against the running server. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpClient tlsClient;

    private Http() {
    }

    /** https://127.0.0.1:HTTPS_PORT + path, e.g. for /metrics, which Liberty serves over TLS only. */
    public static URI tlsUri(String path) {
        return URI.create("https://127.0.0.1:" + StackEnv.get("HTTPS_PORT", "9443") + path);
    }

    /** Over TLS, trusting the dev stack's self-signed certificate (tests only). Null when nobody answers. */
    public static HttpResponse<String> sendTls(HttpRequest.Builder request) {
        try {
            return tlsClient().send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static synchronized HttpClient tlsClient() {
        if (tlsClient == null) {
            try {
                SSLContext tls = SSLContext.getInstance("TLS");
                tls.init(null, new TrustManager[] {new TrustAnything()}, null);
                tlsClient = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return tlsClient;
    }

    public static HttpResponse<String> post(String path) {
        return send(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    public static HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path)).GET());
    }

    /** As the administrator (ADMIN_USER / ADMIN_PASSWORD of the dev stack): the admin API needs a login. */
    public static HttpResponse<String> postAsAdmin(String path) {
        return send(asAdmin(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.noBody())));
    }

    public static HttpResponse<String> getAsAdmin(String path) {
        return send(asAdmin(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path)).GET()));
    }

    /** The application's metrics in Prometheus text, as the admin over TLS; null when the server does not answer. */
    public static HttpResponse<String> applicationMetrics() {
        return sendTls(asAdmin(HttpRequest.newBuilder(tlsUri("/metrics?scope=application")).GET()));
    }

    /** Adds HTTP Basic credentials of the stack's administrator. */
    public static HttpRequest.Builder asAdmin(HttpRequest.Builder request) {
        return request.header("Authorization", basic(adminUser(), adminPassword()));
    }

    public static String adminUser() {
        return StackEnv.get("ADMIN_USER", "admin");
    }

    public static String adminPassword() {
        String password = StackEnv.get("ADMIN_PASSWORD", null);
        if (password == null) {
            throw new IllegalStateException("ADMIN_PASSWORD is not set: run the dev stack first (target/stack/secrets.env)");
        }
        return password;
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
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

    /** The dev stack's certificate is self-signed and made at the server's first start. */
    private static final class TrustAnything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
