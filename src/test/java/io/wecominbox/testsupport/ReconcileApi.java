package io.wecominbox.testsupport;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The reconcile admin API (/api/ops/reconcile-runs) as the tests call it, with the admin login. */
public final class ReconcileApi {

    public static final String PATH = "/api/ops/reconcile-runs";

    private ReconcileApi() {
    }

    /** POSTs a start request; the answer as it came (202, or the refusal the test expects). */
    public static HttpResponse<String> post(String app) {
        return Http.send(Http.asAdmin(HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + PATH))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"app\":\"" + app + "\"}"))));
    }

    /** Starts a pass and returns its id; anything but 202 fails the caller's test. */
    public static long start(String app) {
        HttpResponse<String> answer = post(app);
        if (answer == null || answer.statusCode() != 202) {
            throw new AssertionError("POST reconcile run: " + (answer == null ? "no answer"
                : answer.statusCode() + " " + answer.body()));
        }
        return ReplayApi.json(answer.body()).getJsonNumber("runId").longValue();
    }

    public static JsonObject get(long id) {
        HttpResponse<String> answer = Http.getAsAdmin(PATH + "/" + id);
        if (answer == null || answer.statusCode() != 200) {
            throw new AssertionError("GET reconcile run " + id + ": " + (answer == null ? "no answer" : answer.body()));
        }
        return ReplayApi.json(answer.body());
    }

    /** Waits until the pass has ended (not RUNNING) and returns it as it ended. */
    public static JsonObject awaitEnd(long id, Duration timeout) {
        Poll.until(timeout, () -> !"RUNNING".equals(get(id).getString("state")));
        return get(id);
    }
}
