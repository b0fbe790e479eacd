package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyAndWeComExtension;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReconcileApi;
import io.wecominbox.testsupport.Sql;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of Liberty in the middle of a reconcile pass (pages committed, pulled events being consumed):
 * after the restart the server resumes its own pass from the last committed page, in-doubt branches are
 * resolved, and every relationship lost in the outage ends with exactly one contact row and one CRM message;
 * none published twice by the pages before the kill, none missing.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class ReconcileInterruptedByCrashIT {

    private static final String APP = "customer";
    private static final int MEMBERS = 6;
    private static final int LOST = 30;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final LibertyAndWeComExtension STACK = new LibertyAndWeComExtension();
    private static final LibertyProcess LIBERTY = STACK.liberty();
    private static final String MEMBER_PREFIX = "rcx" + UUID.randomUUID().toString().substring(0, 6);


    @Test
    void aPassKilledMidwayResumesAtRestartAndFindsEveryLostAddExactlyOnce() throws Exception {
        List<SimEvent> lost = new ArrayList<>();
        for (int i = 0; i < LOST; i++) {
            lost.add(STACK.wecom().newContactAddedBy(APP, MEMBER_PREFIX + (i % MEMBERS), true));
        }
        List<DeliveryOutcome> outcomes = STACK.wecom().deliverDuringOutage(lost);
        assertTrue(outcomes.stream().noneMatch(DeliveryOutcome::acknowledged), "WeCom gave up on every add");

        long run = ReconcileApi.start(APP);
        // The kill must land mid-pass, after some pages and before the last. Sampling the progress while the
        // server runs and killing it afterwards left the pass running between the look and the kill (the poll's
        // interval, forking kill -9, the process's exit), so "mid-pass" held only while the pass was slower than
        // the test. Frozen, the server cannot move on: it is looked at and killed as it was seen.
        boolean seenMidPass = LIBERTY.killFrozenWhen(WAIT, () -> pages(run) >= 3);
        long pagesAtKill = pages(run);
        long foundAtKill = found(run);
        assertTrue(seenMidPass, "no progress before the kill: pages=" + pagesAtKill);
        assertEquals("RUNNING", Sql.text("SELECT state FROM reconcile_run WHERE run_id = ?", run), "killed mid-pass");
        assertTrue(foundAtKill > 0 && foundAtKill < LOST, "killed with part of the pass committed: " + foundAtKill
            + " of " + LOST + " found (pages " + pagesAtKill + ")");

        long restarted = System.nanoTime();
        LIBERTY.start();
        JsonObject ended = ReconcileApi.awaitEnd(run, WAIT);
        assertEquals("DONE", ended.getString("state"), ended.toString());
        assertTrue(ended.getInt("resumes") >= 1, "resumed, not restarted: " + ended);
        assertTrue(Poll.until(WAIT, () -> InDoubt.none()),
                "in-doubt branches left: pg=" + InDoubt.database());
        assertTrue(Poll.until(WAIT, () -> contactRows() == LOST && crmMessages() == LOST),
                "lost adds found: contact " + contactRows() + ", crm " + crmMessages());
        Poll.sleep(3_000); // room for a duplicate (a page published twice) to show up
        long recoverySeconds = Duration.ofNanos(System.nanoTime() - restarted).toSeconds();
        System.out.printf("RECONCILE summary [crash mid-pass]: lost=%d pagesAtKill=%d foundAtKill=%d found=%d "
                + "contactRows=%d crmMessages=%d duplicates=%d resumes=%d restartToDoneSeconds=%d run=%s%n", LOST,
                pagesAtKill, foundAtKill, found(run),
                contactRows(), crmMessages(), crmMessages() - LOST, ended.getInt("resumes"), recoverySeconds, ended);
        assertEquals(LOST, contactRows(), "one contact row per lost add");
        assertEquals(LOST, crmMessages(), "one CRM message per lost add");
        assertEquals(LOST, found(run), "each relationship published once by the pass");
        for (SimEvent e : lost) {
            assertEquals(0, STACK.wecom().successfulWelcomeSends(e.welcomeCode()), "no welcome for a pulled record");
        }
    }

    /** Relationships the run has published (committed pages only). */
    private static long found(long run) {
        return Sql.count("SELECT count(*) FROM reconcile_found WHERE run_id = ?", run);
    }

    private static long pages(long run) {
        return Sql.count("SELECT pages FROM reconcile_run WHERE run_id = ?", run);
    }

    private static long contactRows() {
        return Sql.count("SELECT count(*) FROM external_contact WHERE app = ? AND user_id LIKE ? AND status = 'ADDED'",
                APP, MEMBER_PREFIX + "%");
    }

    private static long crmMessages() {
        return BrokerConsole.crmRelationshipAdds(APP + ":external_contact:relationship:" + MEMBER_PREFIX);
    }
}
