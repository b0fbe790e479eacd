package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wecominbox.simulator.api.WeComErrors;
import io.wecominbox.simulator.api.WelcomeCodes;
import io.wecominbox.simulator.platform.EventType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class WelcomeOutcomeTest {

    private static final Instant T0 = Instant.parse("2026-12-02T08:00:00Z");

    /** A clock a test moves by hand. */
    private static final class StepClock extends Clock {
        Instant now = T0;

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final StepClock clock = new StepClock();
    private final WelcomeCodes codes = new WelcomeCodes(clock);

    @Test
    void aCodeUsedWithinItsTwentySecondsIsSentWithItsLatencyFromTheDueTime() {
        MixFeed.Planned add = add("a", T0.plusMillis(300));
        clock.now = T0.plusMillis(1800);
        assertEquals(WeComErrors.OK, codes.use("a"));
        WelcomeOutcome w = WelcomeOutcome.of(List.of(add, text()), codes, T0.plusSeconds(45));
        assertEquals(1, w.adds());
        assertEquals(1, w.sent());
        assertEquals(0, w.expired());
        assertEquals(1500.0, w.latency().p99());
    }

    @Test
    void theFakeApiAnswers41050AfterTwentySecondsFromTheEventAndTheCodeCountsAsExpiredLate() {
        MixFeed.Planned add = add("b", T0);
        clock.now = T0.plusSeconds(20).plusMillis(1);
        assertEquals(WeComErrors.WELCOME_CODE_INVALID, codes.use("b"));
        WelcomeOutcome w = WelcomeOutcome.of(List.of(add), codes, T0.plusSeconds(45));
        assertEquals(0, w.sent());
        assertEquals(1, w.expired());
        assertEquals(1, w.answeredExpired());
    }

    @Test
    void aCodeNeverCalledIsExpiredOnceItsWindowPassedAndPendingBefore() {
        MixFeed.Planned add = add("c", T0);
        assertEquals(1, WelcomeOutcome.of(List.of(add), codes, T0.plusSeconds(10)).pending());
        WelcomeOutcome later = WelcomeOutcome.of(List.of(add), codes, T0.plusSeconds(21));
        assertEquals(1, later.expired());
        assertEquals(0, later.answeredExpired());
        assertEquals(0, later.pending());
    }

    @Test
    void textMessagesAreNoWelcomes() {
        WelcomeOutcome w = WelcomeOutcome.of(List.of(text(), text()), codes, T0);
        assertEquals(0, w.adds());
        assertEquals(0, w.latency().count());
    }

    private MixFeed.Planned add(String code, Instant due) {
        codes.register("customer", code, Instant.ofEpochSecond(due.getEpochSecond())); // CreateTime: whole seconds
        return new MixFeed.Planned(Duration.between(T0, due).toNanos(), due, EventType.ADD_EXTERNAL_CONTACT,
                null, code);
    }

    private static MixFeed.Planned text() {
        return new MixFeed.Planned(0, T0, EventType.TEXT_MESSAGE, null, null);
    }
}
