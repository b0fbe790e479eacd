package io.wecominbox.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for an asynchronous outcome (a message consumed, a server up) without fixed sleeps, or watches that
 * nothing more happens for a while.
 */
public final class Poll {

    private Poll() {
    }

    public static boolean until(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            sleep(200);
        }
        return condition.getAsBoolean();
    }

    /**
     * Checks, over the whole period, that something stays true (no duplicate shows up, nothing more arrives):
     * false as soon as it is not. For "and no more", which no poll for an event can see.
     */
    public static boolean holdsFor(Duration period, BooleanSupplier condition) {
        long deadline = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < deadline) {
            if (!condition.getAsBoolean()) {
                return false;
            }
            sleep(100);
        }
        return condition.getAsBoolean();
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
