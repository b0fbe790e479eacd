package io.wecominbox.ingest;

import java.time.Clock;
import java.time.Duration;

/**
 * Replay guard: refuses a signed request whose {@code timestamp} is further than {@code maxSkew} from our clock,
 * either way. Without it a captured request (a proxy log, a mirror) stays valid forever. Inside the window a
 * request identical to an earlier one may be WeCom's own retry, so it is taken like any delivery. The window
 * must admit WeCom's late retry, which may carry the first delivery's timestamp, plus clock skew
 * ({@link IngestSettings#timestampWindow()}); zero turns the guard off.
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
        long ahead = clock.instant().getEpochSecond() - seconds; // > 0: the request is older than our clock says
        if (Math.abs(ahead) > maxSkew.toSeconds()) {
            // the sample tells an operator which way a wrong clock is off (docs/operations.md, "Replay window")
            throw new CallbackRejected(Rejection.STALE_TIMESTAMP, "timestamp " + Math.abs(ahead) + " s "
                    + (ahead > 0 ? "behind" : "ahead of") + " our clock (window " + maxSkew.toSeconds() + " s)");
        }
    }
}
