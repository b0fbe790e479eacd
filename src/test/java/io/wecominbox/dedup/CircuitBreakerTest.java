package io.wecominbox.dedup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final CircuitBreaker breaker = new CircuitBreaker(Duration.ofSeconds(2), nanos::get);

    @Test
    void afterAFailureCallsAreSkippedUntilTheIntervalEndsThenOneTrialGoesThrough() {
        assertTrue(breaker.allows());
        assertTrue(breaker.failure(), "the first failure opens it");
        assertFalse(breaker.allows());
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        assertTrue(breaker.allows(), "one trial");
        assertFalse(breaker.allows(), "only one");
        breaker.success();
        assertTrue(breaker.allows());
        assertFalse(breaker.isOpen());
    }

    @Test
    void aFailedTrialKeepsItOpenWithoutAnotherLogLine() {
        breaker.failure();
        nanos.addAndGet(Duration.ofSeconds(3).toNanos());
        assertTrue(breaker.allows());
        assertFalse(breaker.failure());
        assertFalse(breaker.allows());
    }
}
