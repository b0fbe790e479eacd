package io.wecominbox.simulator.platform;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults on the platform's side of a delivery: the app answered 200 in time but the platform acts as if
 * it did not (the ACK got lost, or "arrived too late"), so the app sees a re-send of an event it has
 * already taken. By rate, or for the next N answers.
 */
public final class PlatformFaults {

    private final Random random;
    private volatile double lostAckRate;
    private volatile double slowAckPretendRate;
    private final AtomicInteger loseNext = new AtomicInteger();
    private volatile boolean unreachable;

    public PlatformFaults(Random random) {
        this.random = random;
    }

    public void lostAckRate(double rate) {
        this.lostAckRate = checkRate(rate);
    }

    public void slowAckPretendRate(double rate) {
        this.slowAckPretendRate = checkRate(rate);
    }

    /** The next {@code n} in-time 200 answers are treated as lost. */
    public void loseNextAcks(int n) {
        loseNext.set(n);
    }

    /**
     * While on, the app cannot be reached at all (a network cut, both stores down behind a load balancer):
     * every attempt fails to connect, and an event whose retries all fall in the outage is never delivered.
     */
    public void unreachable(boolean on) {
        this.unreachable = on;
    }

    boolean unreachable() {
        return unreachable;
    }

    public void clear() {
        unreachable = false;
        lostAckRate = 0;
        slowAckPretendRate = 0;
        loseNext.set(0);
    }

    /** Decides what the platform makes of an in-time HTTP 200. */
    DeliveryStatus judgeOkAnswer() {
        if (loseNext.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            return DeliveryStatus.LOST_ACK;
        }
        double roll = random.nextDouble();
        if (roll < lostAckRate) {
            return DeliveryStatus.LOST_ACK;
        }
        if (roll < lostAckRate + slowAckPretendRate) {
            return DeliveryStatus.SLOW_ACK_PRETENDED;
        }
        return DeliveryStatus.ACKED;
    }

    static double checkRate(double rate) {
        if (rate < 0 || rate > 1) {
            throw new IllegalArgumentException("rate must be within [0,1], was " + rate);
        }
        return rate;
    }
}
