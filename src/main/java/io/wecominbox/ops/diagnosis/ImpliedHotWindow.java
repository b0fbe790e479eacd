package io.wecominbox.ops.diagnosis;

import java.time.Duration;

/**
 * The hot window a measured retry span implies: 2 × and 3 × its P99. The upper bound is the one to configure
 * (a Redis key per event for a few minutes more costs next to nothing, while a P99 of a finite sample
 * underestimates the tail); below the lower bound, retries outlive their Redis key.
 *
 * @param p99SpanSeconds P99 of (last − first arrival) over the repeated event keys measured
 * @param lowerSeconds   2 × P99
 * @param upperSeconds   3 × P99, the recommended hot window
 */
public record ImpliedHotWindow(double p99SpanSeconds, double lowerSeconds, double upperSeconds, String lower,
                               String upper, String recommended) {

    static final double LOWER_FACTOR = 2.0;
    static final double UPPER_FACTOR = 3.0;

    public static ImpliedHotWindow fromP99(double p99SpanSeconds) {
        double lower = round3(LOWER_FACTOR * p99SpanSeconds);
        double upper = round3(UPPER_FACTOR * p99SpanSeconds);
        return new ImpliedHotWindow(round3(p99SpanSeconds), lower, upper, iso(lower), iso(upper), iso(upper));
    }

    /** ISO-8601, the format of wecom.handler.<name>.hot-window, rounded up to whole seconds. */
    static String iso(double seconds) {
        return Duration.ofSeconds((long) Math.ceil(seconds)).toString();
    }

    static double round3(double value) {
        return Math.round(value * 1000.0) / 1000.0;
    }
}
