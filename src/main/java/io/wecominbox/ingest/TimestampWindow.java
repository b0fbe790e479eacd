package io.wecominbox.ingest;

import java.time.Clock;
import java.time.Duration;

/**
 * Optional replay guard: refuses a signed request whose {@code timestamp} is further than {@code maxSkew} from
 * our clock. Off when maxSkew is zero (the default): WeCom re-sends byte-identical retries up to ~90 s later,
 * and the official test vectors are from 2014, so a window must be generous and deliberate.
 */
public final class TimestampWindow {

    private final Clock clock;
    private final Duration maxSkew;

    public TimestampWindow(Clock clock, Duration maxSkew) {
        this.clock = clock;
        this.maxSkew = maxSkew.isNegative() ? Duration.ZERO : maxSkew;
    }

    public static TimestampWindow off(Clock clock) {
        return new TimestampWindow(clock, Duration.ZERO);
    }

    public boolean enabled() {
        return !maxSkew.isZero();
    }

    public void check(String timestamp) throws CallbackRejected {
        if (!enabled()) {
            return;
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            throw new CallbackRejected(Rejection.BAD_QUERY, "timestamp is not a number");
        }
        long skew = Math.abs(clock.instant().getEpochSecond() - seconds);
        if (skew > maxSkew.toSeconds()) {
            throw new CallbackRejected(Rejection.STALE_TIMESTAMP, "timestamp " + skew + " s away from our clock");
        }
    }
}
