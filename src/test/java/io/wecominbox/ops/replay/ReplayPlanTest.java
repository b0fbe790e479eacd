package io.wecominbox.ops.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.ops.replay.ReplayPlan.Event;
import io.wecominbox.ops.replay.ReplayPlan.Item;
import io.wecominbox.ops.replay.ReplayPlan.Target;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplayPlanTest {

    private static final OffsetDateTime NOW = OffsetDateTime.parse("2026-12-31T00:00:00Z");
    private static final Target CRM = Target.of("crm", Set.of("text", "change_external_contact"),
        DedupPolicy.builder().build());
    private static final Target BOT = Target.of("bot", Set.of("text"), DedupPolicy.builder().build());

    @Test
    void eachEventGoesOnceToEachChosenHandlerThatTakesItsTypeInCallbackLogOrder() {
        ReplayPlan plan = ReplayPlan.of(List.of(event(9, "text", 1), event(4, "change_external_contact", 1)),
            List.of(CRM, BOT), NOW);
        assertEquals(2, plan.eventsSelected());
        assertEquals(List.of(new Item(4, "crm"), new Item(9, "crm"), new Item(9, "bot")), plan.items());
        assertEquals(Map.of("crm", 2, "bot", 1), plan.perHandler());
        assertTrue(plan.tooOld().isEmpty());
    }

    @Test
    void anEventOlderThanTheColdWindowIsTooOldForThatHandlerOnly() {
        Target shortCrm = Target.of("crm", Set.of("text"), DedupPolicy.builder().coldWindow(Duration.ofDays(2)).build());
        ReplayPlan plan = ReplayPlan.of(List.of(event(1, "text", 3), event(2, "text", 1)), List.of(shortCrm, BOT), NOW);
        assertEquals(1, plan.tooOld().size());
        ReplayPlan.TooOld old = plan.tooOld().get(0);
        assertEquals(1, old.callbackLogId());
        assertEquals("crm", old.handler());
        assertEquals(Duration.ofDays(3).toSeconds(), old.ageSeconds());
        assertEquals("PT48H", old.maxAge());
    }

    @Test
    void theMaximumAgeIsTheColdWindowElseTheHotWindowAndNoneForANaturallyIdempotentHandler() {
        assertEquals(Optional.of(Duration.ofDays(30)), CRM.maxAge());
        Target hotOnly = Target.of("x", Set.of("text"),
            DedupPolicy.builder().coldWindow(Duration.ZERO).hotWindow(Duration.ofMinutes(15)).build());
        assertEquals(Optional.of(Duration.ofMinutes(15)), hotOnly.maxAge());
        assertEquals(Optional.empty(), Target.of("contact", Set.of("text"),
            DedupPolicy.naturallyIdempotentHandler()).maxAge());
    }

    private static Event event(long id, String type, int daysOld) {
        return new Event(id, "customer:k" + id, type, NOW.minusDays(daysOld));
    }
}
