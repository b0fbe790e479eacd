package io.wecominbox.handler.welcome;

import static io.wecominbox.testsupport.ExternalContactEvents.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.ExternalContactEvents;
import io.wecominbox.testsupport.FakeWeComExtension;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Black box on the real stack, WeCom's API 0.3-1 s away: a burst of adds is sent with many send_welcome_msg
 * calls in flight at once (more than the welcome bean has sessions), every code once; and when a batch's
 * commit fails after WeCom accepted its welcomes, the redeliveries learn 41051 and nothing is sent twice.
 */
@ExtendWith(ArquillianExtension.class)
class WelcomeBatchIT {

    private static final String APP = "customer";
    private static final String CHAOS_MARKER = "CHAOS_FAIL_AFTER_HANDLE";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** handler.welcome.sessions (WelcomeHandler's descriptor): one call at a time each, before batches. */
    private static final int WELCOME_SESSIONS = 4;

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    private final SignedCallbacks signed = SignedCallbacks.forStackApp(APP);
    private final CallbackClient client = new CallbackClient();
    private final ExternalContactEvents events = new ExternalContactEvents(signed.corpId());

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void aBurstOfAddsIsSentWithMoreCallsInFlightThanSessionsAndEveryCodeOnce() throws Exception {
        // a slow API keeps every session busy while the burst arrives: what waits meanwhile goes out as batches
        WECOM.simulator().apiTiming(new ApiTiming(Duration.ofSeconds(1), Duration.ZERO, 0, Duration.ZERO));
        List<String> codes = burst(60, i -> "burst");

        for (String code : codes) {
            assertEquals("SENT", awaitStatus(code), code);
            assertEquals(1, WECOM.simulator().successfulWelcomeSends(code), code);
        }
        int inFlight = WECOM.simulator().maxConcurrentApiCalls(WeComApiPaths.SEND_WELCOME_MSG);
        assertTrue(inFlight > WELCOME_SESSIONS, "calls in flight at once: " + inFlight);
    }

    @Test
    void whenABatchFailsAfterWeComAcceptedItsWelcomesEachCodeIsStillSentOnce() throws Exception {
        WECOM.simulator().apiTiming(new ApiTiming(Duration.ofMillis(300), Duration.ZERO, 0, Duration.ZERO));
        // every fourth add fails after the effect on its first delivery: its whole batch rolls back
        List<String> codes = burst(24, i -> i % 4 == 0 ? CHAOS_MARKER : "batch");

        for (int i = 0; i < codes.size(); i++) {
            String code = codes.get(i);
            String status = awaitStatus(code);
            if (i % 4 == 0) {
                assertEquals("ALREADY_SENT", status, code + ": the redelivery learned 41051");
            } else {
                assertTrue(status.equals("SENT") || status.equals("ALREADY_SENT"), code + ": " + status);
            }
            assertEquals(1, WECOM.simulator().successfulWelcomeSends(code), code + ": sent once");
            assertEquals(1, Sql.count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?", code), code);
        }
    }

    /** Posts n adds from parallel callers, as a campaign's burst arrives; returns their codes. */
    private List<String> burst(int n, java.util.function.IntFunction<String> state) throws Exception {
        long now = Instant.now().getEpochSecond();
        List<String> codes = new ArrayList<>();
        ExecutorService callers = Executors.newFixedThreadPool(12);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String code = "bt-" + UUID.randomUUID().toString().replace("-", "") + "welcome";
                codes.add(code);
                WECOM.simulator().welcomeCodes().register(APP, code, Instant.ofEpochSecond(now));
                String xml = events.xml("add_external_contact", now, fields("UserID", "zhangsan",
                    "ExternalUserID", "wm" + code.substring(3, 20), "State", state.apply(i), "WelcomeCode", code));
                answers.add(callers.submit(() -> client.post(APP, signed.post(xml)).statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertEquals(200, answer.get());
            }
        } finally {
            callers.shutdown();
        }
        return codes;
    }

    private static String awaitStatus(String code) throws Exception {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?",
            code) == 1), "no welcome_send_log row for " + code + " within " + WAIT);
        return Sql.text("SELECT status FROM welcome_send_log WHERE welcome_code = ?", code);
    }
}
