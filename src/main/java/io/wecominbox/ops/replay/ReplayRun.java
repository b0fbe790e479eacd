package io.wecominbox.ops.replay;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * One replay as GET /api/ops/replays/{id} shows it.
 *
 * @param total        messages to publish (per event, one per chosen handler that takes its type)
 * @param done         messages published so far (committed with the chunk that sent them)
 * @param rate         published messages per second since the start (until the end, for a finished one)
 * @param outcomes     per handler, from the dispositions the handlers recorded for this replay's messages
 * @param settled      every published message has a final disposition (effect or duplicate)
 */
public record ReplayRun(long replayId, String state, String requestedBy, OffsetDateTime requestedAt,
                        JsonObject selection, List<String> handlers, String batchId, String reason, int maxRate,
                        int eventsSelected, int total, int done, double rate, OffsetDateTime startedAt,
                        OffsetDateTime finishedAt, String failure, Map<String, Outcome> outcomes, boolean settled) {

    public static final String RUNNING = "RUNNING";
    public static final String DONE = "DONE";
    public static final String CANCELLED = "CANCELLED";
    public static final String FAILED = "FAILED";

    /**
     * What one handler did with this replay's messages.
     *
     * @param effects          PROCESSED, RETRIED, FORCED or PROCEEDED_WITHOUT_STORE: the effect ran
     * @param duplicates       DUPLICATE_HOT or DUPLICATE_COLD: dedup absorbed it, nothing ran
     * @param rejectedAttempts REJECTED_STORE_DOWN: attempts rolled back for redelivery (not final)
     */
    public record Outcome(long effects, long duplicates, long rejectedAttempts) {
    }

    static double rate(int done, OffsetDateTime startedAt, OffsetDateTime end) {
        if (startedAt == null || done == 0) {
            return 0;
        }
        long millis = Math.max(1, Duration.between(startedAt, end).toMillis());
        return Math.round(done * 10_000.0 / millis) / 10.0;
    }
}
