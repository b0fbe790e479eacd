package io.wecominbox.simulator.api;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApiFaultsTest {

    private final ApiFaults faults = new ApiFaults(new Random(11));

    @Test
    void countedRuleHitsExactlyTheNextNCallsOfItsPath() {
        faults.add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 2));

        assertEquals(Optional.empty(), faults.next(WeComApiPaths.GET_TOKEN));
        assertEquals(Optional.of(ApiFault.SYSTEM_BUSY), faults.next(WeComApiPaths.SEND_WELCOME_MSG));
        assertEquals(Optional.of(ApiFault.SYSTEM_BUSY), faults.next(WeComApiPaths.SEND_WELCOME_MSG));
        assertEquals(Optional.empty(), faults.next(WeComApiPaths.SEND_WELCOME_MSG));
        assertTrue(faults.rules().isEmpty(), "used-up rules disappear");
    }

    @Test
    void countedRulesAreUsedInTheOrderAdded() {
        faults.add(ApiFaults.Rule.nextCalls(ApiFaults.ANY_PATH, ApiFault.HTTP_500, 1));
        faults.add(ApiFaults.Rule.nextCalls(ApiFaults.ANY_PATH, ApiFault.SLOW, 1));

        assertEquals(Optional.of(ApiFault.HTTP_500), faults.next(WeComApiPaths.MESSAGE_SEND));
        assertEquals(Optional.of(ApiFault.SLOW), faults.next(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void rateRuleHitsAboutItsShareOfCalls() {
        faults.add(ApiFaults.Rule.rate(WeComApiPaths.MESSAGE_SEND, ApiFault.HTTP_502, 0.2));

        int hits = 0;
        for (int i = 0; i < 10_000; i++) {
            if (faults.next(WeComApiPaths.MESSAGE_SEND).isPresent()) hits++;
        }
        assertTrue(hits > 1800 && hits < 2200, "hits=" + hits);
        assertEquals(Optional.empty(), faults.next(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void faultNamesParseFromLowerCaseAndDashes() {
        assertEquals(ApiFault.DROP_AFTER_EFFECT, ApiFault.fromName("drop-after-effect"));
        assertEquals(ApiFault.OTHER_APP_SENDING, ApiFault.fromName("other_app_sending"));
        assertThrows(IllegalArgumentException.class, () -> ApiFault.fromName("meteor"));
    }
}
