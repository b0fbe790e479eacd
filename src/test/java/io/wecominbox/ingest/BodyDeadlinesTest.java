package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A deadline expires once, when due; a cancelled one never does, and leaves nothing behind. */
class BodyDeadlinesTest {

    @Test
    void aDueDeadlineExpiresOnceAndAnEarlierSweepLeavesItWaiting() {
        List<Runnable> handedOver = new ArrayList<>();
        BodyDeadlines deadlines = new BodyDeadlines(handedOver::add);
        AtomicInteger expired = new AtomicInteger();
        deadlines.register(1_000, expired::incrementAndGet);

        deadlines.expireDue(999);
        assertEquals(0, handedOver.size());
        deadlines.expireDue(1_000);
        deadlines.expireDue(5_000);
        assertEquals(1, handedOver.size(), "handed to the executor once");
        handedOver.forEach(Runnable::run);
        assertEquals(1, expired.get());
        assertEquals(0, deadlines.size());
    }

    @Test
    void aCancelledDeadlineNeverExpiresAndIsNotKept() {
        AtomicInteger expired = new AtomicInteger();
        BodyDeadlines deadlines = new BodyDeadlines(Runnable::run);
        BodyDeadlines.Pending answered = deadlines.register(1_000, expired::incrementAndGet);
        deadlines.register(2_000, expired::incrementAndGet);

        answered.cancel();
        assertEquals(1, deadlines.size(), "the answered request is no longer referenced");
        deadlines.expireDue(1_500);
        assertEquals(0, expired.get());
        deadlines.expireDue(2_000);
        assertEquals(1, expired.get());
    }

    @Test
    void anExpiryTheExecutorRefusesRunsOnTheSweepingThread() {
        AtomicInteger expired = new AtomicInteger();
        BodyDeadlines deadlines = whileTheExecutorShutsDown();
        deadlines.register(10, expired::incrementAndGet);
        deadlines.expireDue(10);
        assertEquals(1, expired.get());
    }

    @Test
    void anExpiryThatThrowsOnTheSweepingThreadLeavesTheSweepAndTheOtherDeadlinesGoing() {
        AtomicInteger expired = new AtomicInteger();
        BodyDeadlines deadlines = whileTheExecutorShutsDown();
        deadlines.register(10, () -> {
            throw new IllegalStateException("response already gone");
        });
        deadlines.register(10, expired::incrementAndGet);
        deadlines.expireDue(10);
        assertEquals(1, expired.get());
        assertEquals(0, deadlines.size());
    }

    private static BodyDeadlines whileTheExecutorShutsDown() {
        return new BodyDeadlines(task -> {
            throw new RejectedExecutionException("shutting down");
        });
    }
}
