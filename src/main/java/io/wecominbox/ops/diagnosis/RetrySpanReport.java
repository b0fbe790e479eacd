package io.wecominbox.ops.diagnosis;

import jakarta.json.bind.annotation.JsonbNillable;
import java.time.Instant;
import java.util.List;

/**
 * The answer of GET /api/ops/retry-span. Null figures are written as null (not left out), so "no data" is
 * visible in the JSON itself.
 *
 * @param status               MEASURED, or NO_DATA when no event was delivered more than once in the period
 * @param impliedLowerSeconds  2 × P99: a hot window below it is SHORTER_THAN_IMPLIED
 * @param impliedUpperSeconds  3 × P99: the recommended hot window
 * @param recommendedHotWindow the upper bound as an ISO-8601 duration (whole seconds), ready for
 *                             wecom.handler.&lt;name&gt;.hot-window
 * @param note                 what the figures mean (or why there are none)
 * @param warnings             one line per handler whose hot window is shorter than recommended
 */
public record RetrySpanReport(String status, String period, Instant since, @JsonbNillable String app,
                              long deliveries, long newEvents, long repeatedEvents,
                              @JsonbNillable Double p50SpanSeconds, @JsonbNillable Double p99SpanSeconds,
                              @JsonbNillable Double maxSpanSeconds, @JsonbNillable Double impliedLowerSeconds,
                              @JsonbNillable Double impliedUpperSeconds, @JsonbNillable String recommendedHotWindow,
                              String note,
                              List<HandlerHotWindow> handlers, List<String> warnings) {
}
