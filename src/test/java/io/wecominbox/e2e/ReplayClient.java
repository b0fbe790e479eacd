package io.wecominbox.e2e;

import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReplayApi;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
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
        HttpResponse<String> answer = ReplayApi.post(request.build().toString());
        if (answer == null || answer.statusCode() != 202) {
            throw new AssertionError("replay refused: " + (answer == null ? "no answer" : answer.statusCode() + " "
                + answer.body()));
        }
        long id = ReplayApi.json(answer.body()).getJsonNumber("replayId").longValue();
        if (!Poll.until(timeout, () -> ReplayApi.get(id).getBoolean("settled"))) {
            throw new AssertionError("replay " + id + " did not settle: " + ReplayApi.get(id));
        }
        JsonObject settled = ReplayApi.get(id);
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

}
