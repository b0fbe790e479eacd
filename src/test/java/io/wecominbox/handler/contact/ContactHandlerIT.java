package io.wecominbox.handler.contact;

import static io.wecominbox.testsupport.ExternalContactEvents.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.ExternalContactEvents;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box on the real stack: signed change_external_contact callbacks, one at a time (each waits until the
 * contact handler has committed it), in orders WeCom's retries and our redeliveries can produce; the
 * external_contact row must end as the newest add or delete says.
 */
@ExtendWith(ArquillianExtension.class)
class ContactHandlerIT {

    private static final String APP = "customer";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final SignedCallbacks signed = SignedCallbacks.forStackApp(APP);
    private final CallbackClient client = new CallbackClient();
    private final ExternalContactEvents events = new ExternalContactEvents(signed.corpId());
    private final String member = "lisi";
    private final String customer = "wm" + UUID.randomUUID().toString().replace("-", "");
    private final long t0 = Instant.now().getEpochSecond() - 100;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void aContactDeletedThenEditedStaysDeleted() throws Exception {
        deliver("add_external_contact", t0, fields("State", "channel_1"));
        deliver("del_external_contact", t0 + 2, fields("Source", "DELETE_BY_TRANSFER"));
        deliver("edit_external_contact", t0 + 1, fields()); // older than the delete, arrives after it
        deliver("edit_external_contact", t0 + 3, fields()); // even a newer edit does not bring it back

        ContactRow row = row();
        assertEquals("DELETED_BY_MEMBER", row.status());
        assertEquals(Instant.ofEpochSecond(t0 + 2), row.deletedAt());
        assertEquals("DELETE_BY_TRANSFER", row.deleteSource());
        assertNull(row.editedAt(), "no edit was applied to the deleted contact");
        assertEquals(Instant.ofEpochSecond(t0 + 2), row.lastEventAt());
    }

    @Test
    void onlyANewerAddBringsADeletedContactBack() throws Exception {
        deliver("add_external_contact", t0, fields("State", "first"));
        deliver("del_follow_user", t0 + 5, fields());
        deliver("add_external_contact", t0, fields("State", "first")); // a late redelivery of the old add
        assertEquals("DELETED_BY_CUSTOMER", row().status());

        deliver("add_external_contact", t0 + 9, fields("State", "second"));
        ContactRow row = row();
        assertEquals("ADDED", row.status());
        assertEquals("second", row.state());
        assertEquals(Instant.ofEpochSecond(t0 + 9), row.addedAt());
        assertNull(row.deletedAt());

        deliver("del_external_contact", t0 + 5, fields()); // an old delete arriving late loses to the newer add
        assertEquals("ADDED", row().status());
    }

    @Test
    void repeatsAndReversedOrderGiveTheSameRow() throws Exception {
        deliver("del_external_contact", t0 + 3, fields());      // the delete overtakes its add
        deliver("add_half_external_contact", t0, fields("State", "x"));
        deliver("del_external_contact", t0 + 3, fields());      // and is delivered again
        ContactRow row = row();
        assertEquals("DELETED_BY_MEMBER", row.status());
        assertNull(row.addedAt(), "the older add was not applied over the tombstone");
        assertEquals(1, Sql.count("SELECT count(*) FROM external_contact WHERE app = ? AND external_user_id = ?",
            APP, customer));
    }

    @Test
    void aFailedTransferIsNotedWithoutChangingAnExistingContact() throws Exception {
        deliver("add_external_contact", t0, fields());
        deliver("transfer_fail", t0 + 1, fields("FailReason", "customer_refused"));
        ContactRow row = row();
        assertEquals("ADDED", row.status());
        assertEquals("customer_refused", row.transferFailReason());
    }

    /** Posts one event and waits until the contact handler has committed it. */
    private void deliver(String changeType, long createTime, Map<String, String> extra) throws Exception {
        Map<String, String> fields = fields("UserID", member, "ExternalUserID", customer);
        fields.putAll(extra);
        String xml = events.xml(changeType, createTime, fields);
        String key = APP + ":" + EventKeys.keyOf(WeComEvent.parse(xml));
        long before = handled(key);
        assertEquals(200, client.post(APP, signed.post(xml)).statusCode());
        assertTrue(Poll.until(WAIT, () -> handled(key) > before), "contact handler did not commit " + changeType);
    }

    // adds are handled under the relationship's generation key, everything else under the callback's own key
    private long handled(String eventKey) {
        return Sql.count("SELECT count(*) FROM handler_disposition WHERE handler = 'contact' AND (event_key = ?"
            + " OR event_key LIKE ?)", eventKey, APP + ":external_contact:relationship:" + member + ":" + customer + ":%");
    }

    private ContactRow row() throws SQLException {
        try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
            "SELECT status, state, added_at, edited_at, deleted_at, delete_source, transfer_fail_reason, last_event_at"
                + " FROM external_contact WHERE app = ? AND user_id = ? AND external_user_id = ?")) {
            s.setString(1, APP);
            s.setString(2, member);
            s.setString(3, customer);
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next(), "no external_contact row");
                return new ContactRow(rs.getString(1), rs.getString(2), instant(rs, 3), instant(rs, 4),
                    instant(rs, 5), rs.getString(6), rs.getString(7), instant(rs, 8));
            }
        }
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private record ContactRow(String status, String state, Instant addedAt, Instant editedAt, Instant deletedAt,
                              String deleteSource, String transferFailReason, Instant lastEventAt) {
    }
}
