package io.wecominbox.testsupport;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The replay admin API (/api/ops/replays) as the tests call it: with the admin login, JSON in and out. */
public final class ReplayApi {

    public static final String PATH = "/api/ops/replays";

    private ReplayApi() {
    }

    /** POSTs a replay request; the answer as it came (202, or the refusal the test expects). */
    public static HttpResponse<String> post(String body) {
        return Http.send(Http.asAdmin(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + PATH))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))));
    }

    /** One replay as GET /api/ops/replays/{id} shows it; anything but 200 is a failure of the caller's test. */
    public static JsonObject get(long id) {
        HttpResponse<String> answer = Http.getAsAdmin(PATH + "/" + id);
        if (answer == null || answer.statusCode() != 200) {
            throw new AssertionError("GET replay " + id + ": " + (answer == null ? "no answer" : answer.body()));
        }
        return json(answer.body());
    }

    public static JsonObject json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
