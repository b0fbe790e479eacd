package io.wecominbox.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A pulled record as an event: it reads back as itself, has no WelcomeCode, and keys apart from callbacks. */
class PulledContactTest {

    private final PulledContact pulled = new PulledContact("wxcorp", "lisi", "wmCustomer", "vip",
        Instant.ofEpochSecond(1_733_050_000), Instant.ofEpochSecond(1_733_040_000), 42, false);

    @Test
    void itReadsBackAsTheSameRecordWithoutAWelcomeCode() throws Exception {
        WeComEvent e = WeComEvent.parse(pulled.toXml());
        assertEquals(pulled, PulledContact.of(e).orElseThrow());
        assertEquals("change_external_contact", e.typeName());
        assertEquals("add_external_contact", e.changeType());
        assertNull(e.welcomeCode(), "no welcome can ever be attempted for a pulled record");
    }

    @Test
    void aGoneRelationshipTravelsAsADelFollowUserOfItsRun() throws Exception {
        PulledContact gone = new PulledContact("wxcorp", "lisi", "wmCustomer", null, Instant.ofEpochSecond(1_733_060_000),
            null, 43, true);
        WeComEvent e = WeComEvent.parse(gone.toXml());
        assertEquals("del_follow_user", e.changeType());
        assertEquals(gone, PulledContact.of(e).orElseThrow());
        assertNotEquals(EventKeys.relationshipGeneration("lisi", "wmCustomer", 1),
            EventKeys.relationshipGone("lisi", "wmCustomer", 1), "an end is its own fact, once per generation");
    }

    @Test
    void aCallbackIsNotAPulledRecord() throws Exception {
        WeComEvent callback = WeComEvent.parse("<xml><ToUserName>wxcorp</ToUserName><CreateTime>1733050000</CreateTime>"
            + "<MsgType>event</MsgType><Event>change_external_contact</Event><ChangeType>add_external_contact"
            + "</ChangeType><UserID>lisi</UserID><ExternalUserID>wmCustomer</ExternalUserID></xml>");
        assertTrue(PulledContact.of(callback).isEmpty());
        assertNotEquals(EventKeys.keyOf(callback), EventKeys.keyOf(WeComEvent.parse(pulled.toXml())),
            "the ingest-level keys differ; only the handlers' relationship key joins them");
    }

    @Test
    void theRelationshipKeyNamesMemberCustomerAndGenerationOnly() {
        assertEquals("external_contact:relationship:lisi:wm%3Ax:2", EventKeys.relationshipGeneration("lisi", "wm:x", 2));
        assertNotEquals(EventKeys.relationshipGeneration("lisi", "wmA", 1), EventKeys.relationshipGeneration("lisi", "wmA", 2));
    }
}
