package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HandlerDrainTest {

    @Test
    void eachHandlersDrainTimeIsWhenItsQueueFirstStoodEmpty() {
        HandlerDrain drain = new HandlerDrain(Map.of("wecom.handler.crm", 900L, "wecom.handler.welcome", 40L));
        drain.sample(0.5, Map.of("wecom.handler.crm", 700L, "wecom.handler.welcome", 0L));
        drain.sample(1.0, Map.of("wecom.handler.crm", 300L, "wecom.handler.welcome", 3L)); // new arrivals: still 0.5
        drain.sample(2.5, Map.of("wecom.handler.crm", 0L, "wecom.handler.welcome", 0L));
        assertTrue(drain.allDrained());
        assertEquals(new HandlerDrain.Result(900, 2.5, 0), drain.results().get("crm"));
        assertEquals(new HandlerDrain.Result(40, 0.5, 0), drain.results().get("welcome"));
    }

    @Test
    void aQueueStillHoldingMessagesWhenThePauseEndsReportsWhatWasLeft() {
        HandlerDrain drain = new HandlerDrain(Map.of("wecom.handler.conversation", 5000L));
        drain.sample(25.0, Map.of("wecom.handler.conversation", 1200L));
        assertFalse(drain.allDrained());
        HandlerDrain.Result r = drain.results().get("conversation");
        assertFalse(r.drained());
        assertEquals(1200, r.left());
        assertEquals(5000, r.atEnd());
    }

    @Test
    void anEmptyQueueAtTheEndDrainedInNoTime() {
        HandlerDrain drain = new HandlerDrain(Map.of("wecom.handler.bot", 0L));
        assertTrue(drain.allDrained());
        assertEquals(0.0, drain.results().get("bot").drainSeconds());
    }

    @Test
    void withNoQueueReadYetNothingCountsAsDrained() {
        HandlerDrain drain = new HandlerDrain(Map.of()); // the broker did not answer at the step's end
        assertFalse(drain.allDrained());
        drain.sample(1.0, Map.of("wecom.handler.crm", 0L));
        assertEquals(-1, drain.results().get("crm").atEnd());
        assertEquals(1.0, drain.results().get("crm").drainSeconds());
    }
}
