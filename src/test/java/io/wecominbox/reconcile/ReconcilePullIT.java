package io.wecominbox.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.FakeWeComExtension;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReconcileApi;
import io.wecominbox.testsupport.Sql;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Black box on the real stack with the simulator playing WeCom on both sides: adds happen while the app is
 * unreachable for longer than WeCom's retry horizon (never delivered), and the next reconcile pass must find
 * them, with exactly one contact row and one CRM message each; late callbacks and repeated passes add nothing;
 * a missed deletion is marked gone only by a complete pass. Each test uses members of its own.
 */
@ExtendWith(ArquillianExtension.class)
class ReconcilePullIT {

    private static final String APP = "customer";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    private final String members = "rc" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void addsLostInAnOutageAreFoundByTheNextPullWithOneContactRowAndOneCrmMessageEach() {
        WeComSimulator sim = WECOM.simulator();
        List<SimEvent> delivered = List.of(sim.newContactAddedBy(APP, members + "a", true),
            sim.newContactAddedBy(APP, members + "b", true));
        delivered.forEach(e -> assertTrue(sim.deliver(e).acknowledged()));
        assertTrue(Poll.until(WAIT, () -> contactRows(members, null) == 2 && crmMessages(members) == 2),
            "the delivered adds reached contact and crm");

        List<SimEvent> lost = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lost.add(sim.newContactAddedBy(APP, members + (i % 2 == 0 ? "a" : "c"), true));
        }
        List<DeliveryOutcome> outcomes = sim.deliverDuringOutage(lost);
        assertTrue(outcomes.stream().noneMatch(DeliveryOutcome::acknowledged), "WeCom gave up on every lost add");
        assertEquals(0, contactRows(members, null) - 2, "nothing of the lost adds reached us");

        long run = ReconcileApi.start(APP);
        JsonObject ended = ReconcileApi.awaitEnd(run, WAIT);
        assertEquals("DONE", ended.getString("state"), ended.toString());
        assertTrue(Poll.until(WAIT, () -> contactRows(members, run) == 5 && crmMessages(members) == 7),
            "every lost add found: contact rows " + contactRows(members, run) + ", crm " + crmMessages(members));
        waitForCrmDispositions(7);
        for (SimEvent e : lost) {
            assertEquals(1, contactRowsOf(e), "one contact row for " + e.id());
            assertEquals(1, crmMessagesOf(e), "one crm message for " + e.id());
            assertEquals(0, sim.successfulWelcomeSends(e.welcomeCode()), "no welcome for a pulled record");
        }
        for (SimEvent e : delivered) {
            assertEquals(1, crmMessagesOf(e), "the delivered add was not told twice");
        }
        long found = Sql.count("SELECT count(*) FROM reconcile_found WHERE run_id = ? AND user_id LIKE ?", run,
            members + "%");
        System.out.println("RECONCILE summary [lost callbacks]: lost=" + lost.size() + " found=" + found
            + " contactRows=" + contactRows(members, run) + " crmMessages=" + (crmMessages(members) - delivered.size())
            + " duplicates=" + (crmMessages(members) - 7) + " run=" + ended);
        assertEquals(lost.size(), found);

        // late callbacks for two of the lost adds: same relationship generation, nothing new
        for (SimEvent e : lost.subList(0, 2)) {
            assertTrue(sim.deliver(e).acknowledged());
        }
        assertTrue(Poll.until(WAIT, () -> crmDispositions("DUPLICATE_HOT", "DUPLICATE_COLD") >= 2),
            "crm saw the late callbacks as duplicates");
        assertEquals(7, crmMessages(members), "a late callback after the pull adds no CRM message");
        assertEquals(7, contactRows(members, null), "nor a contact row");

        // a second pass, through an expired token and two frequency-limit answers, finds nothing new
        sim.expireAccessTokens(APP);
        sim.injectApiFault(WeComApiPaths.BATCH_GET_BY_USER, ApiFault.FREQUENCY_LIMIT, 2);
        long again = ReconcileApi.start(APP);
        JsonObject second = ReconcileApi.awaitEnd(again, WAIT);
        assertEquals("DONE", second.getString("state"), second.toString());
        assertEquals(2, second.getInt("errors"), "the two 45009 answers were retried after a back-off");
        assertEquals(0, Sql.count("SELECT count(*) FROM reconcile_found WHERE run_id = ? AND user_id LIKE ?", again,
            members + "%"), "a pull run twice finds nothing new");
        Poll.sleep(2_000); // anything published by mistake would land on crm.outbound within this
        assertEquals(7, crmMessages(members));
        assertEquals(7, contactRows(members, null));
    }

    @Test
    void aPullAndLateCallbacksOfTheSameAddsAtOnceTellTheCrmOnceEach() {
        WeComSimulator sim = WECOM.simulator();
        List<SimEvent> lost = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lost.add(sim.newContactAddedBy(APP, members + "e" + (i % 2), false));
        }
        assertTrue(sim.deliverDuringOutage(lost).stream().noneMatch(DeliveryOutcome::acknowledged));

        // both sources at the same moment: the pass's pulled records and the callbacks race to the handlers
        List<java.util.concurrent.CompletableFuture<DeliveryOutcome>> late = lost.stream().map(sim::deliverAsync).toList();
        long run = ReconcileApi.start(APP);
        late.forEach(f -> assertTrue(f.join().acknowledged()));
        assertEquals("DONE", ReconcileApi.awaitEnd(run, WAIT).getString("state"));
        assertTrue(Poll.until(WAIT, () -> contactRows(members, null) == 4 && crmMessages(members) == 4),
            "contact rows " + contactRows(members, null) + ", crm " + crmMessages(members));
        Poll.sleep(2_000); // a second effect of either source would land within this
        for (SimEvent e : lost) {
            assertEquals(1, contactRowsOf(e), "one contact row for " + e.id());
            assertEquals(1, crmMessagesOf(e), "one crm message for " + e.id());
        }
        assertEquals(4, Sql.count("SELECT count(*) FROM external_contact_generation WHERE app = ? AND user_id LIKE ?",
            APP, members + "%"), "one generation per relationship, whichever source recorded it");
    }

    @Test
    void aDeletionMissedIsMarkedGoneByACompletePassAndNotByAPartialOne() {
        WeComSimulator sim = WECOM.simulator();
        SimEvent kept = sim.newContactAddedBy(APP, members + "d", false);
        SimEvent deleted = sim.newContactAddedBy(APP, members + "d", false);
        assertTrue(sim.deliver(kept).acknowledged());
        assertTrue(sim.deliver(deleted).acknowledged());
        assertTrue(Poll.until(WAIT, () -> contactRows(members, null) == 2));
        String customer = field(deleted, "ExternalUserID");
        List<DeliveryOutcome> lostDelete = sim.deliverDuringOutage(List.of(
            sim.newContactDeleted(APP, members + "d", customer, true)));
        assertFalse(lostDelete.get(0).acknowledged());
        // the relationship must be known from before the pass started (with WeCom's clock-skew margin)
        Sql.update("UPDATE external_contact SET added_at = added_at - interval '10 minutes' WHERE user_id LIKE ?",
            members + "%");

        sim.injectApiFaultRate(WeComApiPaths.BATCH_GET_BY_USER, ApiFault.FREQUENCY_LIMIT, 1.0);
        long partial = ReconcileApi.start(APP);
        JsonObject failed = ReconcileApi.awaitEnd(partial, WAIT);
        assertEquals("FAILED", failed.getString("state"), failed.toString());
        assertEquals("ADDED", status(members + "d", customer), "a partial pass marks nothing gone");
        assertEquals(0, crmMessagesOf(members + "d", customer, "1:gone"), "and tells the crm nothing");

        sim.reset();
        long complete = ReconcileApi.start(APP);
        JsonObject done = ReconcileApi.awaitEnd(complete, WAIT);
        assertEquals("DONE", done.getString("state"), done.toString());
        assertTrue(Poll.until(WAIT, () -> "GONE".equals(status(members + "d", customer))),
            "the complete pass marked the missed deletion: " + status(members + "d", customer));
        assertTrue(Poll.until(WAIT, () -> crmMessagesOf(members + "d", customer, "1:gone") == 1),
            "the crm was told once that generation 1 ended");
        assertEquals(String.valueOf(complete), Sql.text("SELECT reconcile_run_id::text FROM external_contact"
            + " WHERE user_id = ? AND external_user_id = ?", members + "d", customer));
        assertEquals("ADDED", status(members + "d", field(kept, "ExternalUserID")));
        assertTrue(done.getInt("markedGone") >= 1);

        // the customer comes back: the re-add callback is a new generation, so crm hears of it again
        assertTrue(sim.deliver(sim.newContactReAdded(APP, members + "d", customer)).acknowledged());
        assertTrue(Poll.until(WAIT, () -> "ADDED".equals(status(members + "d", customer))
            && crmMessagesOf(members + "d", customer, "2") == 1), "re-added: a new generation for the crm");
        assertEquals(1, crmMessagesOf(members + "d", customer, "1"), "generation 1 was told once");
        assertEquals(1, crmMessagesOf(members + "d", customer, "1:gone"), "and its end once");
    }

    private long contactRows(String memberPrefix, Long run) {
        return run == null
            ? Sql.count("SELECT count(*) FROM external_contact WHERE app = ? AND user_id LIKE ?", APP, memberPrefix + "%")
            : Sql.count("SELECT count(*) FROM external_contact WHERE app = ? AND user_id LIKE ? AND reconcile_run_id = ?"
                + " AND status = 'ADDED'", APP, memberPrefix + "%", run);
    }

    private static long contactRowsOf(SimEvent e) {
        return Sql.count("SELECT count(*) FROM external_contact WHERE app = ? AND user_id = ? AND external_user_id = ?",
            APP, field(e, "UserID"), field(e, "ExternalUserID"));
    }

    /** CRM messages about these members' customers being added (ends excluded). */
    private static long crmMessages(String memberPrefix) {
        return BrokerConsole.crmRelationshipAdds(APP + ":external_contact:relationship:" + memberPrefix);
    }

    /** CRM messages about the customer's adds, any generation (not their ends). */
    private static long crmMessagesOf(SimEvent e) {
        return BrokerConsole.crmRelationshipAdds(APP + ":external_contact:relationship:" + field(e, "UserID") + ":"
            + field(e, "ExternalUserID") + ":");
    }

    /** CRM messages under exactly this relationship key suffix ("1", "2", "1:gone"). */
    private static long crmMessagesOf(String member, String customer, String suffix) {
        return BrokerConsole.countMessages("crm.outbound",
            "eventKey = '" + APP + ":external_contact:relationship:" + member + ":" + customer + ":" + suffix + "'");
    }

    private long crmDispositions(String... dispositions) {
        return Sql.count("SELECT count(*) FROM handler_disposition WHERE handler = 'crm' AND event_key LIKE ?"
            + " AND disposition = ANY (?::text[])", APP + ":external_contact:relationship:" + members + "%",
            "{" + String.join(",", dispositions) + "}");
    }

    private void waitForCrmDispositions(int n) {
        assertTrue(Poll.until(WAIT, () -> crmDispositions("PROCESSED", "RETRIED") >= n), "crm dispositions recorded");
    }

    private static String status(String member, String customer) {
        return Sql.text("SELECT status FROM external_contact WHERE app = ? AND user_id = ? AND external_user_id = ?",
            APP, member, customer);
    }

    private static String field(SimEvent e, String name) {
        String xml = e.xml();
        int start = xml.indexOf("<" + name + "><![CDATA[") + name.length() + 11;
        return xml.substring(start, xml.indexOf("]]>", start));
    }
}
