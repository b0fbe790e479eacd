package io.wecominbox.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConsumerPacingTest {

    private final List<Long> slept = new ArrayList<>();

    @Test
    void withoutPressureNoHandlerWaits() {
        assertEquals(Duration.ZERO, ConsumerPacing.hold(() -> false, Duration.ofSeconds(5), slept::add));
        assertEquals(List.of(), slept);
    }

    @Test
    void underLastingPressureAHandlerWaitsItsLimitInSlices() {
        Duration waited = ConsumerPacing.hold(() -> true, Duration.ofMillis(250), slept::add);
        assertEquals(Duration.ofMillis(250), waited);
        assertEquals(13, slept.size(), "twelve 20 ms slices and the 10 ms left");
        assertEquals(10L, slept.get(12));
    }

    @Test
    void theWaitEndsAtTheFirstSliceThatFindsThePressureGone() {
        AtomicInteger asked = new AtomicInteger();
        Duration waited = ConsumerPacing.hold(() -> asked.incrementAndGet() <= 3, Duration.ofSeconds(5), slept::add);
        assertEquals(Duration.ofMillis(60), waited);
    }

    @Test
    void aHandlerWithADeadlineNeverWaits() {
        ConsumerPacing pacing = new ConsumerPacing();
        pacing.promptMaxYieldMillis = 250;
        pacing.catchUpMaxYieldMillis = 5000;
        assertEquals(Duration.ZERO, pacing.maxYield(Urgency.DEADLINE));
        assertEquals(Duration.ofMillis(250), pacing.maxYield(Urgency.PROMPT));
        assertEquals(Duration.ofSeconds(5), pacing.maxYield(Urgency.CATCH_UP));
        assertEquals(Duration.ZERO, ConsumerPacing.hold(() -> true, pacing.maxYield(Urgency.DEADLINE), slept::add));
    }

    @Test
    void anInterruptEndsTheWaitAndIsKept() {
        Duration waited = ConsumerPacing.hold(() -> true, Duration.ofSeconds(5), millis -> {
            throw new InterruptedException("stopping");
        });
        assertEquals(Duration.ZERO, waited);
        assertTrue(Thread.interrupted(), "the interrupt is kept for the container");
    }
}
