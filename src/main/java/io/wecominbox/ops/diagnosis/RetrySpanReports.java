package io.wecominbox.ops.diagnosis;

import io.wecominbox.handler.HandlerCatalog.HandlerPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Turns the measurement and the handlers' policies into the report (no I/O). */
final class RetrySpanReports {

    /** Below this many repeated keys the P99 is close to the maximum: say so. */
    static final int SMALL_SAMPLE = 100;

    private RetrySpanReports() {
    }

    static RetrySpanReport build(String period, Instant since, String app, MeasuredRetrySpan measured,
                                 List<HandlerPolicy> policies) {
        ImpliedHotWindow implied = measured.hasData() ? ImpliedHotWindow.fromP99(measured.p99SpanSeconds()) : null;
        List<HandlerHotWindow> handlers = policies.stream()
            .map(p -> HotWindowCheck.check(p.name(), p.policy(), implied)).toList();
        List<String> warnings = handlers.stream().map(HandlerHotWindow::warning).filter(Objects::nonNull).toList();
        return new RetrySpanReport(implied == null ? "NO_DATA" : "MEASURED", period, since, app,
            measured.deliveries(), measured.newEvents(), measured.repeatedEvents(), measured.p50SpanSeconds(),
            measured.p99SpanSeconds(), measured.maxSpanSeconds(), implied == null ? null : implied.lowerSeconds(),
            implied == null ? null : implied.upperSeconds(), implied == null ? null : implied.recommended(),
            note(measured, app), handlers, warnings);
    }

    private static String note(MeasuredRetrySpan measured, String app) {
        String scope = app == null ? "" : " for app " + app;
        if (!measured.hasData()) {
            return "No event was delivered more than once in this period" + scope + " (" + measured.deliveries()
                + " deliveries): there is no retry span to measure yet, so no hot window can be checked against it."
                + " WeCom only retries when our answer is slow or lost; widen the period to look further back.";
        }
        String sample = measured.repeatedEvents() < SMALL_SAMPLE
            ? " Only " + measured.repeatedEvents() + " repeated events: the P99 is close to the longest span."
            : "";
        return "Span = last minus first arrival of one event key, over the " + measured.repeatedEvents()
            + " keys repeated in this period" + scope + ". Implied hot window: 2 × P99 (lower) to 3 × P99 (upper,"
            + " recommended)." + sample;
    }
}
