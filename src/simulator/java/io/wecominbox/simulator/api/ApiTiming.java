package io.wecominbox.simulator.api;

import java.time.Duration;
import java.util.Random;

/**
 * How long the simulated API takes to answer, as a real one does: a base latency with uniform jitter, and a
 * slow tail (a share of calls that take much longer, e.g. 1 % at 3 s). The delay is served after the effect,
 * so a caller that gives up during it cannot know whether the call worked. {@link #NONE} answers at once.
 *
 * @param latency      typical time to answer (WeCom is 30-150 ms away from most callers)
 * @param jitter       each answer takes latency ± up to this much
 * @param slowTailRate share of calls that take {@code slowTail} instead
 * @param slowTail     how long a call of the slow tail takes
 */
public record ApiTiming(Duration latency, Duration jitter, double slowTailRate, Duration slowTail) {

    public static final ApiTiming NONE = new ApiTiming(Duration.ZERO, Duration.ZERO, 0, Duration.ZERO);

    public ApiTiming {
        if (latency.isNegative() || jitter.isNegative() || slowTail.isNegative()) {
            throw new IllegalArgumentException("API timings must not be negative");
        }
        if (slowTailRate < 0 || slowTailRate > 1) {
            throw new IllegalArgumentException("slowTailRate must be within [0,1], was " + slowTailRate);
        }
    }

    /** Realistic defaults for benchmarks: 100 ms ± 30 ms, 1 % of calls at 3 s. */
    public static ApiTiming realistic() {
        return new ApiTiming(Duration.ofMillis(100), Duration.ofMillis(30), 0.01, Duration.ofSeconds(3));
    }

    /** The delay of one call. */
    public Duration nextDelay(Random random) {
        if (slowTailRate > 0 && random.nextDouble() < slowTailRate) {
            return slowTail;
        }
        long jitterMillis = jitter.toMillis();
        long millis = latency.toMillis() + (jitterMillis == 0 ? 0 : random.nextLong(-jitterMillis, jitterMillis + 1));
        return Duration.ofMillis(Math.max(0, millis));
    }
}
