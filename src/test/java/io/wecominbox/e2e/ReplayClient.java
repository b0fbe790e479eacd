package io.wecominbox.e2e;

import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/** The operator's replay, through the admin API (POST /api/ops/replays), waited for until its outcomes settle. */
final class ReplayClient {

    private ReplayClient() {
    }

    /** Replays these events to the given handlers (none = every handler that takes them); batchId may be null. */
    static JsonObject replayAndWait(Collection<String> eventKeys, List<String> handlers, String batchId,
                                    Duration timeout) {
        JsonArrayBuilder keys = Json.createArrayBuilder();
        eventKeys.forEach(keys::add);
        JsonObjectBuilder request = Json.createObjectBuilder().add("eventKeys", keys)
            .add("reason", "end-to-end suite: replay of a whole batch");
        if (!handlers.isEmpty()) {
            JsonArrayBuilder names = Json.createArrayBuilder();
            handlers.forEach(names::add);
            request.add("handlers", names);
        }
        if (batchId != null) {
            request.add("batchId", batchId);
        }
        HttpResponse<String> answer = Http.send(Http.asAdmin(HttpRequest.newBuilder(
                URI.create(StackEnv.baseUrl() + "/api/ops/replays"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(request.build().toString()))));
        if (answer == null || answer.statusCode() != 202) {
            throw new AssertionError("replay refused: " + (answer == null ? "no answer" : answer.statusCode() + " "
                + answer.body()));
        }
        long id = json(answer.body()).getJsonNumber("replayId").longValue();
        if (!Poll.until(timeout, () -> replay(id).getBoolean("settled"))) {
            throw new AssertionError("replay " + id + " did not settle: " + replay(id));
        }
        JsonObject settled = replay(id);
        if (!"DONE".equals(settled.getString("state"))) {
            throw new AssertionError("replay " + id + " ended " + settled);
        }
        return settled;
    }

    /** Sum of one outcome field (effects, duplicates) over the given handlers. */
    static long outcome(JsonObject replay, Collection<String> handlers, String field) {
        JsonObject outcomes = replay.getJsonObject("outcomes");
        return handlers.stream().filter(outcomes::containsKey)
            .mapToLong(h -> outcomes.getJsonObject(h).getJsonNumber(field).longValue()).sum();
    }

    private static JsonObject replay(long id) {
        HttpResponse<String> answer = Http.getAsAdmin("/api/ops/replays/" + id);
        if (answer == null || answer.statusCode() != 200) {
            throw new IllegalStateException("GET replay " + id + ": " + (answer == null ? "no answer" : answer.body()));
        }
        return json(answer.body());
    }

    private static JsonObject json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
