package io.wecominbox.simulator.platform;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * When WeCom sends each attempt of one callback, measured from the first attempt: 0, about +5 s, +10 s,
 * then one late retry 84-90 s after the first (observed in the field, not documented), then it gives up.
 * {@code timeScale} shrinks these delays so demos and tests need not wait 90 s.
 */
public final class RetrySchedule {

    public static final int MAX_RETRIES = 3;
    public static final Duration FIRST_RETRY = Duration.ofSeconds(5);
    public static final Duration SECOND_RETRY = Duration.ofSeconds(10);
    public static final Duration LATE_RETRY_MIN = Duration.ofSeconds(84);
    public static final Duration LATE_RETRY_MAX = Duration.ofSeconds(90);

    private final double timeScale;
    private final Random random;

    public RetrySchedule(double timeScale, Random random) {
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("timeScale must be > 0, was " + timeScale);
        }
        this.timeScale = timeScale;
        this.random = random;
    }

    /** Offsets of attempts 1..4 from the first attempt; the late retry's jitter is drawn per event. */
    public List<Duration> offsetsForOneEvent() {
        long jitterMillis = LATE_RETRY_MAX.minus(LATE_RETRY_MIN).toMillis();
        Duration late = LATE_RETRY_MIN.plusMillis((long) (random.nextDouble() * (jitterMillis + 1)));
        return List.of(Duration.ZERO, scale(FIRST_RETRY), scale(SECOND_RETRY), scale(late));
    }

    public double timeScale() {
        return timeScale;
    }

    private Duration scale(Duration d) {
        return Duration.ofNanos(Math.round(d.toNanos() * timeScale));
    }
}
