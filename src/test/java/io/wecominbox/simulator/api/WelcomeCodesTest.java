package io.wecominbox.simulator.api;

import io.wecominbox.simulator.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WelcomeCodesTest {

    private static final Instant CREATE_TIME = Instant.ofEpochSecond(1_700_000_000L);
    private final MutableClock clock = new MutableClock(CREATE_TIME);
    private final WelcomeCodes codes = new WelcomeCodes(clock);

    @Test
    void codeSendsOnceThenAnswers41051() {
        codes.register("customer", "CODE1", CREATE_TIME);

        assertEquals(WeComErrors.OK, codes.use("CODE1"));
        assertEquals(WeComErrors.EXTERNAL_USER_STARTED_CHATTING, codes.use("CODE1"));
        assertEquals(WeComErrors.EXTERNAL_USER_STARTED_CHATTING, codes.use("CODE1"));
        assertEquals(3, codes.state("CODE1").orElseThrow().sendAttempts());
        assertTrue(codes.state("CODE1").orElseThrow().used());
    }

    @Test
    void codeIsValidUpTo20SecondsAfterTheEventsCreateTime() {
        codes.register("customer", "CODE1", CREATE_TIME);
        clock.advance(Duration.ofSeconds(20));

        assertEquals(WeComErrors.OK, codes.use("CODE1"));
    }

    @Test
    void codePast20SecondsAnswers41050AndStaysUnused() {
        codes.register("customer", "CODE1", CREATE_TIME);
        clock.advance(Duration.ofSeconds(20).plusMillis(1));

        assertEquals(WeComErrors.WELCOME_CODE_INVALID, codes.use("CODE1"));
        assertFalse(codes.state("CODE1").orElseThrow().used());
    }

    @Test
    void unknownCodeAnswers41050AndMissingCodeAnswers41049() {
        assertEquals(WeComErrors.WELCOME_CODE_INVALID, codes.use("NEVER-ISSUED"));
        assertEquals(WeComErrors.WELCOME_CODE_MISSING, codes.use(""));
        assertEquals(WeComErrors.WELCOME_CODE_MISSING, codes.use(null));
    }

    @Test
    void concurrentUsesOfOneCodeSendExactlyOnce() throws Exception {
        codes.register("customer", "CODE1", CREATE_TIME);
        int threads = 16;
        java.util.concurrent.atomic.AtomicInteger successes = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (codes.use("CODE1") == WeComErrors.OK) successes.incrementAndGet();
            });
            workers[i].start();
        }
        start.countDown();
        for (Thread t : workers) t.join();

        assertEquals(1, successes.get());
    }
}
