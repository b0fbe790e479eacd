package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.ingest.RequestLimiter.Permit;
import io.wecominbox.ingest.RequestLimiter.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RequestLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void aKeyGetsNoMoreInFlightThanItsLimitAndAPlaceFreesWhenOneIsAnswered() {
        RequestLimiter limiter = new RequestLimiter(3, 0, 100, now::get);
        List<Permit> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(limiter.acquire("10.0.0.1"));
        }
        assertEquals(Verdict.TOO_MANY_IN_FLIGHT, limiter.acquire("10.0.0.1").verdict());
        assertEquals(Verdict.ADMITTED, limiter.acquire("10.0.0.2").verdict(), "another key has its own places");
        limiter.release(held.get(0));
        limiter.release(held.get(0)); // twice: still one place
        assertEquals(Verdict.ADMITTED, limiter.acquire("10.0.0.1").verdict());
        assertEquals(Verdict.TOO_MANY_IN_FLIGHT, limiter.acquire("10.0.0.1").verdict());
    }

    @Test
    void aRefusalHoldsNoPlace() {
        RequestLimiter limiter = new RequestLimiter(1, 0, 100, now::get);
        Permit held = limiter.acquire("a");
        Permit refused = limiter.acquire("a");
        limiter.release(refused);
        assertEquals(1, limiter.inFlight("a"), "releasing a refusal gives nothing back");
        limiter.release(held);
        assertEquals(0, limiter.inFlight("a"));
    }

    @Test
    void theRateAllowsABurstOfTwoSecondsThenRefillsWithTime() {
        RequestLimiter limiter = new RequestLimiter(1_000, 10, 100, now::get);
        for (int i = 0; i < 20; i++) {
            limiter.release(limiter.acquire("a"));
        }
        assertEquals(Verdict.TOO_MANY_PER_SECOND, limiter.acquire("a").verdict(), "the 21st in the same instant");
        now.addAndGet(100_000_000L); // 0.1 s at 10/s: one more
        assertEquals(Verdict.ADMITTED, limiter.acquire("a").verdict());
        assertEquals(Verdict.TOO_MANY_PER_SECOND, limiter.acquire("a").verdict());
        now.addAndGet(60_000_000_000L); // a quiet minute refills two seconds' worth, no more
        int admitted = 0;
        while (limiter.acquire("a").admitted()) {
            admitted++;
        }
        assertEquals(20, admitted);
    }

    @Test
    void anIdleKeyWithAFullBucketIsForgottenAndPastTheBoundNewKeysPassUntracked() {
        RequestLimiter limiter = new RequestLimiter(1, 10, 2, now::get);
        limiter.release(limiter.acquire("a"));
        assertEquals(1, limiter.trackedKeys(), "its bucket is not full yet");
        now.addAndGet(1_000_000_000L);
        limiter.release(limiter.acquire("a")); // one token short of full again: still kept
        Permit b = limiter.acquire("b");
        assertEquals(2, limiter.trackedKeys());
        Permit c = limiter.acquire("c");
        assertEquals(Verdict.ADMITTED, c.verdict(), "past the bound: admitted, not refused");
        assertEquals(1, limiter.untracked());
        limiter.release(c); // nothing to give back
        assertEquals(1, limiter.inFlight("b"));
        now.addAndGet(10_000_000_000L); // "a" is idle and full again: the next full map sweeps it out
        assertEquals(Verdict.ADMITTED, limiter.acquire("d").verdict());
        assertEquals(1, limiter.untracked(), "d took a's place");
        assertTrue(limiter.inFlight("d") == 1 && limiter.inFlight("a") == 0);
        limiter.release(b);
    }
}
