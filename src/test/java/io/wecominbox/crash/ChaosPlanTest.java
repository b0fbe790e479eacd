package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.crash.ChaosPlan.Fault;
import io.wecominbox.crash.ChaosPlan.Kind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChaosPlanTest {

    private static final Duration TRAFFIC = Duration.ofSeconds(20);
    private static final Set<Kind> ALL = EnumSet.allOf(Kind.class);

    @Test
    void theSameSeedGivesTheSamePlan() {
        for (long seed = -50; seed < 50; seed++) {
            assertEquals(ChaosPlan.of(seed, ALL, TRAFFIC), ChaosPlan.of(seed, ALL, TRAFFIC));
        }
        assertEquals(ChaosPlan.of(7, ALL, TRAFFIC), ChaosPlan.of(7, new LinkedHashSet<>(List.of(Kind.values())), TRAFFIC),
            "the order the enabled set iterates in does not matter");
    }

    @Test
    void aPlanNeverChangesForAGivenSeedAcrossVersionsOfThisCode() {
        // a seed recorded in docs/chaos-campaign.md must replay the same faults with the kinds it ran with: pin
        // one plan of the first kinds (the batches before STALL_NODE) and one of all
        Set<Kind> beforeStalls = EnumSet.complementOf(EnumSet.of(Kind.STALL_NODE));
        assertEquals("[NET_CUT_BROKER@8.1s+5.9s PG_RESTART_FAST@14.3s+0.0s]",
            ChaosPlan.of(42, beforeStalls, TRAFFIC).describe());
        assertEquals("[PG_RESTART_IMMEDIATE@8.1s+0.0s BROKER_FAILOVER@16.8s+8.5s]", ChaosPlan.of(42, ALL, TRAFFIC).describe());
        assertEquals(2949826092126892291L, ChaosPlan.nextSeed(42));
    }

    @Test
    void differentSeedsGiveDifferentPlans() {
        Set<String> plans = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) {
            plans.add(ChaosPlan.of(seed, ALL, TRAFFIC).describe());
        }
        assertTrue(plans.size() > 190, "distinct plans: " + plans.size());
    }

    @Test
    void everyRoundHasOneOrTwoFaultsOfTheEnabledKindsInsideTheTrafficInOrder() {
        Set<Kind> enabled = EnumSet.of(Kind.KILL_NODE, Kind.REDIS_RESTART, Kind.STALL_NODE);
        Set<Kind> seen = EnumSet.noneOf(Kind.class);
        int twos = 0;
        long seed = 1;
        for (int round = 0; round < 500; round++, seed = ChaosPlan.nextSeed(seed)) {
            ChaosPlan plan = ChaosPlan.of(seed, enabled, TRAFFIC);
            assertTrue(plan.faults().size() == 1 || plan.faults().size() == 2, plan.describe());
            twos += plan.faults().size() == 2 ? 1 : 0;
            Duration previous = Duration.ZERO;
            for (Fault f : plan.faults()) {
                seen.add(f.kind());
                assertTrue(enabled.contains(f.kind()), plan.describe());
                assertTrue(f.at().compareTo(previous) > 0 && f.at().compareTo(TRAFFIC) < 0, plan.describe());
                boolean onANode = f.kind() == Kind.KILL_NODE || f.kind() == Kind.STALL_NODE;
                assertTrue(onANode ? f.node() == 1 || f.node() == 2 : f.node() == 0, plan.describe());
                previous = f.at();
            }
        }
        assertEquals(enabled, seen, "every enabled kind drawn");
        assertTrue(twos > 100 && twos < 300, "about 40 % of rounds have two faults: " + twos);
    }

    @Test
    void seedsChainSoThatAnyRoundReplaysAlone() {
        long first = 123;
        long second = ChaosPlan.nextSeed(first);
        assertNotEquals(first, second);
        assertEquals(second, ChaosPlan.nextSeed(first));
        assertNotEquals(second, ChaosPlan.nextSeed(second));
    }

    @Test
    void kindsParseFromAListWithExclusions() {
        assertEquals(ALL, Kind.parse("all"));
        assertEquals(EnumSet.complementOf(EnumSet.of(Kind.NET_CUT_DB, Kind.NET_CUT_BROKER)),
            Kind.parse("all,-net_cut_db,-NET_CUT_BROKER"));
        assertEquals(EnumSet.of(Kind.KILL_NODE, Kind.PG_RESTART_FAST), Kind.parse("KILL_NODE, PG_RESTART_FAST"));
        assertThrows(IllegalArgumentException.class, () -> Kind.parse("REBOOT_THE_MOON"));
        assertThrows(IllegalArgumentException.class, () -> ChaosPlan.of(1, EnumSet.noneOf(Kind.class), TRAFFIC));
    }
}
