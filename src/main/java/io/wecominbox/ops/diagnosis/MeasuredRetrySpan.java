package io.wecominbox.ops.diagnosis;

/**
 * What callback_log says about repeats since a moment.
 *
 * @param deliveries     deliveries received in the period
 * @param newEvents      first deliveries in the period (attempt 1): the events that arrived
 * @param repeatedEvents event keys with a repeat in the period (the spans measured)
 * @param p50SpanSeconds median span; null when nothing repeated
 * @param p99SpanSeconds P99 span (percentile_cont, interpolated); null when nothing repeated
 * @param maxSpanSeconds longest span; null when nothing repeated
 */
public record MeasuredRetrySpan(long deliveries, long newEvents, long repeatedEvents, Double p50SpanSeconds,
                                Double p99SpanSeconds, Double maxSpanSeconds) {

    public boolean hasData() {
        return repeatedEvents > 0 && p99SpanSeconds != null;
    }
}
