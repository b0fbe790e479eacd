package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.callbacklog.IncomingDelivery;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallbackRowsCommittedTest {

    private static final Set<String> DEADLINE = Set.of("change_external_contact");

    @Test
    void aCommitOfAddsOnlyWakesTheDeadlineLaneAlone() {
        CallbackRowsCommitted adds = CallbackRowsCommitted.of(List.of(row("change_external_contact"),
            row("change_external_contact")));
        assertEquals(2, adds.rows());
        assertTrue(adds.anyOf(DEADLINE));
        assertFalse(adds.anyOtherThan(DEADLINE), "nothing for the other lane to take");
    }

    @Test
    void aCommitOfTextMessagesOnlyWakesTheOtherLaneAlone() {
        CallbackRowsCommitted texts = CallbackRowsCommitted.of(List.of(row("text")));
        assertFalse(texts.anyOf(DEADLINE));
        assertTrue(texts.anyOtherThan(DEADLINE));
    }

    @Test
    void aMixedCommitWakesBothLanes() {
        CallbackRowsCommitted mixed = CallbackRowsCommitted.of(List.of(row("text"), row("change_external_contact")));
        assertTrue(mixed.anyOf(DEADLINE));
        assertTrue(mixed.anyOtherThan(DEADLINE));
    }

    @Test
    void aRowWithoutAnEventTypeIsTheOtherLanesAsTheTakeCountsIt() {
        CallbackRowsCommitted untyped = CallbackRowsCommitted.of(List.of(row(null)));
        assertEquals(Set.of(""), untyped.eventTypes());
        assertFalse(untyped.anyOf(DEADLINE));
        assertTrue(untyped.anyOtherThan(DEADLINE));
        assertTrue(untyped.anyOtherThan(Set.of()), "without a deadline lane, the one lane takes everything");
    }

    private static IncomingDelivery row(String eventType) {
        return new IncomingDelivery("customer", "ww-test", "1000002", "q", "<xml>raw</xml>", "<xml>plain</xml>",
            "event", eventType, null, "customer:key", "1733050000", OffsetDateTime.now(), "127.0.0.1", null, null);
    }
}
