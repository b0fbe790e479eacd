package io.wecominbox.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventEnvelopeTest {

    private final EventEnvelope callback =
        EventEnvelope.ofCallback(42, Instant.parse("2026-12-01T10:00:00.000123Z"), 3, "customer", "text", null,
            "customer:msg:1", 1718000000L, "<xml/>");

    @Test
    void aCallbackCarriesTheRoutingPropertiesAndItsRowsDuplicateId() {
        Map<String, Object> p = callback.properties();
        assertEquals("customer", p.get(EventEnvelope.APP));
        assertEquals("text", p.get(EventEnvelope.EVENT_TYPE));
        assertEquals("customer:msg:1", p.get(EventEnvelope.EVENT_KEY));
        assertEquals(42L, p.get(EventEnvelope.CALLBACK_LOG_ID));
        assertEquals(3, p.get(EventEnvelope.ATTEMPT));
        assertEquals(1718000000L, p.get(EventEnvelope.CREATE_TIME));
        assertEquals("callback_log:42:1796119200000123", p.get(EventEnvelope.DUPLICATE_ID),
            "the row's id and receipt time: a rebuilt database's id 42 is another row");
    }

    @Test
    void absentValuesAreLeftOutBecauseJmsHasNoNullProperty() {
        Map<String, Object> p = callback.properties();
        assertFalse(p.containsKey(EventEnvelope.CHANGE_TYPE));
        assertFalse(p.containsKey(EventEnvelope.REPLAY_ID));
        assertFalse(p.containsKey(EventEnvelope.BATCH_ID));
        assertFalse(p.containsKey(EventEnvelope.RECONCILE_RUN_ID));
        assertFalse(p.containsValue(null));
    }

    @Test
    void aReplayedCopyKeepsTheEventAndGetsADuplicateIdPerReplayAndHandler() {
        EventEnvelope crm = callback.replayed(7, "b-1", "crm");
        assertEquals("customer:msg:1", crm.eventKey());
        assertEquals(42L, crm.callbackLogId());
        assertEquals(7L, crm.properties().get(EventEnvelope.REPLAY_ID));
        assertEquals("b-1", crm.properties().get(EventEnvelope.BATCH_ID));
        assertNotEquals(crm.duplicateId(), callback.replayed(7, "b-1", "bot").duplicateId(), "one per handler queue");
        assertNotEquals(crm.duplicateId(), callback.replayed(8, "b-1", "crm").duplicateId(), "a new replay is sent");
        assertEquals(crm.duplicateId(), callback.replayed(7, "b-1", "crm").duplicateId(), "a resumed chunk is dropped");
    }
}
