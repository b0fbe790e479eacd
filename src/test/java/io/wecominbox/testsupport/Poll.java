package io.wecominbox.testsupport;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for an asynchronous outcome (a message consumed, a server up) without fixed sleeps. */
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

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
