package io.wecominbox.pacing;

import java.time.Duration;

/**
 * Whether the callback path is under pressure, from samples of its delays, with hysteresis so that the consumers
 * do not flap: one sample at or above {@code enter} turns it on; it turns off once no sample has reached
 * {@code leave} for {@code calm}. Pure: the caller gives the clock ({@link System#nanoTime()}).
 */
public final class AckPressure {

    private final long enterNanos;
    private final long leaveNanos;
    private final long calmNanos;
    private boolean pressed;
    private long lastHotNanos;
    private long since;
    private long episodes;

    public AckPressure(Duration enter, Duration leave, Duration calm) {
        if (leave.compareTo(enter) > 0 || leave.isNegative() || calm.isNegative()) {
            throw new IllegalArgumentException("pacing needs 0 <= leave <= enter and calm >= 0, not enter=" + enter
                + " leave=" + leave + " calm=" + calm);
        }
        this.enterNanos = enter.toNanos();
        this.leaveNanos = leave.toNanos();
        this.calmNanos = calm.toNanos();
    }

    /** One observed delay of the callback path (a late probe, or the age of what waits for a commit). */
    public synchronized void sample(long latencyNanos, long nowNanos) {
        if (latencyNanos >= enterNanos && !pressed) {
            pressed = true;
            since = nowNanos;
            episodes++;
        }
        if (latencyNanos >= leaveNanos) {
            lastHotNanos = nowNanos;
        }
    }

    /** True while under pressure: entered, and not yet calm for the whole calm period. */
    public synchronized boolean pressed(long nowNanos) {
        if (pressed && nowNanos - lastHotNanos >= calmNanos) {
            pressed = false;
        }
        return pressed;
    }

    /** How long the current pressure has lasted; zero when there is none. */
    public synchronized Duration pressedFor(long nowNanos) {
        return pressed(nowNanos) ? Duration.ofNanos(nowNanos - since) : Duration.ZERO;
    }

    /** How many times pressure began since this object was made. */
    public synchronized long episodes() {
        return episodes;
    }
}
