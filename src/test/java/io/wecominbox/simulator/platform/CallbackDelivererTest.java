package io.wecominbox.simulator.platform;

import io.wecominbox.simulator.config.WeComApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallbackDelivererTest {

    private static final double TIME_SCALE = 0.01; // retries at +50 ms, +100 ms, +840..900 ms
    private static final WeComApp APP = new WeComApp("customer", "ww-corp", "tok", "k".repeat(43), "1000002", "s");
    private static final SimEvent EVENT = new SimEvent("sim-customer-1", "customer", EventType.TEXT_MESSAGE,
            Instant.ofEpochSecond(1_700_000_000L), "<xml><Content><![CDATA[hi]]></Content></xml>", null);
    /** Seals differently on every call, so byte-identical re-sends prove the platform seals only once. */
    private static final CallbackSealer CHANGING_SEALER = new CallbackSealer() {
        private final Random random = new Random();
        @Override
        public SealedCallback seal(WeComApp app, SimEvent event) {
            String nonce = "n%2B" + random.nextInt(1_000_000); // a '+' that must stay encoded
            return new SealedCallback("<xml><Encrypt><![CDATA[" + random.nextLong() + "]]></Encrypt></xml>",
                    "msg_signature=abc&timestamp=1700000000&nonce=" + nonce);
        }
    };

    private FakeCallbackApp app;
    private CallbackDeliverer deliverer;
    private final PlatformFaults faults = new PlatformFaults(new Random(3));
    private final DeliveryLog log = new DeliveryLog();

    @AfterEach
    void tearDown() {
        if (deliverer != null) deliverer.close();
        if (app != null) app.close();
    }

    private CallbackDeliverer deliverer(URI base, Duration ackTimeout) {
        deliverer = new CallbackDeliverer(base, ackTimeout, name -> APP, CHANGING_SEALER,
                new RetrySchedule(TIME_SCALE, new Random(5)), faults, log, Clock.systemUTC());
        return deliverer;
    }

    private DeliveryOutcome deliver(URI base, Duration ackTimeout) throws Exception {
        return deliverer(base, ackTimeout).deliver(EVENT).get(10, TimeUnit.SECONDS);
    }

    @Test
    void okAnswerIsAcknowledgedAfterOneAttemptToTheAppsCallbackUrl() throws Exception {
        app = new FakeCallbackApp();

        DeliveryOutcome outcome = deliver(app.base(), Duration.ofMillis(500));

        assertTrue(outcome.acknowledged());
        assertEquals(1, outcome.attemptCount());
        assertEquals(DeliveryStatus.ACKED, outcome.lastStatus());
        assertEquals("/wecom/callback/customer", app.received.get(0).path());
    }

    @Test
    void http500IsRetriedThreeTimesOnScheduleWithByteIdenticalBodyAndQuery() throws Exception {
        app = new FakeCallbackApp().then(FakeCallbackApp.Answer.ok()).otherwise(FakeCallbackApp.Answer.status(500));
        deliver(app.base(), Duration.ofMillis(500)); // warm-up: connection setup would skew the first offset
        app.received.clear();

        DeliveryOutcome outcome = deliverer.deliver(EVENT).get(10, TimeUnit.SECONDS);

        assertFalse(outcome.acknowledged());
        assertEquals(4, outcome.attemptCount(), "first attempt + 3 retries, then WeCom gives up");
        assertEquals(List.of(1, 2, 3, 4), outcome.attempts().stream().map(DeliveryAttempt::attempt).toList());
        assertTrue(outcome.attempts().stream().allMatch(a -> a.status() == DeliveryStatus.HTTP_ERROR
                && a.httpStatus() == 500));
        List<FakeCallbackApp.Received> got = app.received;
        assertEquals(4, got.size());
        for (FakeCallbackApp.Received r : got) {
            assertEquals(got.get(0).body(), r.body());
            assertEquals(got.get(0).rawQuery(), r.rawQuery());
        }
        assertTrue(got.get(0).rawQuery().contains("nonce=n%2B"), "query stays URL-encoded: " + got.get(0).rawQuery());
        long t0 = got.get(0).nanoTime();
        assertOffset(got.get(1).nanoTime() - t0, 50, 250);
        assertOffset(got.get(2).nanoTime() - t0, 100, 250);
        assertOffset(got.get(3).nanoTime() - t0, 840, 250);
        Thread.sleep(300);
        assertEquals(4, app.received.size(), "no fifth attempt");
    }

    @Test
    void slowAnswerCountsAsTimeoutAndTheNextAttemptIsAcknowledged() throws Exception {
        app = new FakeCallbackApp().then(FakeCallbackApp.Answer.slow(400));

        DeliveryOutcome outcome = deliver(app.base(), Duration.ofMillis(150));

        assertTrue(outcome.acknowledged());
        assertEquals(2, outcome.attemptCount());
        assertEquals(DeliveryStatus.TIMEOUT, outcome.attempts().get(0).status());
        assertEquals(DeliveryStatus.ACKED, outcome.attempts().get(1).status());
    }

    @Test
    void lostAckMakesThePlatformResendAlthoughTheAppAnswered200() throws Exception {
        app = new FakeCallbackApp();
        faults.loseNextAcks(2);

        DeliveryOutcome outcome = deliver(app.base(), Duration.ofMillis(500));

        assertEquals(List.of(DeliveryStatus.LOST_ACK, DeliveryStatus.LOST_ACK, DeliveryStatus.ACKED),
                outcome.attempts().stream().map(DeliveryAttempt::status).toList());
        assertEquals(3, app.received.size());
        assertEquals(2, log.retries());
    }

    @Test
    void refusedConnectionIsRetriedUntilThePlatformGivesUp() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }

        DeliveryOutcome outcome = deliver(URI.create("http://127.0.0.1:" + closedPort + "/cb"), Duration.ofMillis(300));

        assertFalse(outcome.acknowledged());
        assertEquals(4, outcome.attemptCount());
        assertTrue(outcome.attempts().stream().allMatch(a -> a.status() == DeliveryStatus.CONNECTION_ERROR));
        assertEquals(1, log.abandonedEvents());
    }

    @Test
    void logCountsAttemptsAndReportsAckLatencyPercentiles() throws Exception {
        app = new FakeCallbackApp().then(FakeCallbackApp.Answer.status(502));
        deliverer(app.base(), Duration.ofMillis(500));

        for (int i = 0; i < 5; i++) {
            deliverer.deliver(EVENT).get(10, TimeUnit.SECONDS);
        }

        assertEquals(5, log.events());
        assertEquals(6, log.attemptCount());
        assertEquals(1, log.retries());
        assertEquals(5, log.count(DeliveryStatus.ACKED));
        assertEquals(1, log.count(DeliveryStatus.HTTP_ERROR));
        assertTrue(log.ackLatencyPercentile(50).compareTo(Duration.ZERO) > 0);
        assertTrue(log.ackLatencyPercentile(99).compareTo(log.ackLatencyPercentile(50)) >= 0);
    }

    /**
     * Offsets are measured at the app, where the first request may arrive a few ms late. Never early; late by
     * at most the tolerance: a loaded 2-core machine (other builds running) delayed a timer by 54 ms.
     */
    private static void assertOffset(long nanos, long expectedMillis, long toleranceMillis) {
        long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
        assertTrue(millis >= expectedMillis - 10 && millis <= expectedMillis + toleranceMillis,
                "offset " + millis + " ms, expected about " + expectedMillis + " ms");
    }
}
