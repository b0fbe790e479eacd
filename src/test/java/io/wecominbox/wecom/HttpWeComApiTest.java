package io.wecominbox.wecom;

import static io.wecominbox.wecom.SimulatedWeCom.APP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.wecom.WeComCallOutcome.Kind;
import jakarta.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpWeComApiTest {

    private static final WelcomeContent WELCOME = WelcomeContent.text("Welcome! 欢迎");

    private final SimulatedWeCom wecom = new SimulatedWeCom();
    private final HttpWeComApi api = wecom.client();

    @AfterEach
    void stop() {
        wecom.close();
    }

    @Test
    void aReRunsBatchIdTravelsUnchangedInTheWelcomeRequestAndNormalSendsCarryNone() {
        String code = wecom.newWelcomeCode();
        String other = wecom.newWelcomeCode();

        assertEquals(Kind.DONE, api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10), "Batch.7_x-1").kind());
        assertEquals(Kind.DONE, api.sendWelcomeMessage(APP, other, WELCOME, wecom.inSeconds(10)).kind());

        var calls = wecom.sim.apiCalls().calls(io.wecominbox.simulator.api.WeComApiPaths.SEND_WELCOME_MSG);
        assertEquals(2, calls.size());
        assertEquals("\"Batch.7_x-1\"", calls.get(0).extraFields().get(WeComApi.BATCH_ID_FIELD));
        assertEquals(java.util.Optional.of(code), calls.get(0).welcomeCode());
        assertEquals(null, calls.get(1).extraFields().get(WeComApi.BATCH_ID_FIELD));
    }

    @Test
    void welcomeMessageIsSentWithTheCodeAndText() {
        String code = wecom.newWelcomeCode();

        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
        assertEquals(0, outcome.errcode().getAsInt());
        assertEquals(200, outcome.httpStatus());
        assertEquals(1, wecom.sim.successfulWelcomeSends(code));
        ApiCall call = wecom.sim.apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG).get(0);
        assertEquals("Welcome! 欢迎", call.content().orElseThrow());
    }

    @Test
    void tokenIsFetchedOnceForTwentyConcurrentSends() throws Exception {
        // a slow gettoken makes every sender arrive while the first fetch is still under way
        wecom.sim.apiSlowDelay(Duration.ofMillis(400));
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.SLOW, 1);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Callable<WeComCallOutcome>> sends = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String code = wecom.newWelcomeCode();
                sends.add(() -> api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10)));
            }
            for (Future<WeComCallOutcome> outcome : pool.invokeAll(sends)) {
                assertEquals(Kind.DONE, outcome.get().kind(), outcome.get().toString());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
        assertEquals(20, wecom.sim.calls(WeComApiPaths.SEND_WELCOME_MSG));
    }

    @Test
    void tokenIsRefreshedAfter42001AndTheSendRetriedOnce() {
        assertEquals(Kind.DONE, api.sendMessage(APP, MessageSendRequest.text("zhangsan", "one"), wecom.inSeconds(5)).kind());
        assertEquals(1, wecom.sim.expireAccessTokens(APP));

        String code = wecom.newWelcomeCode();
        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
        assertEquals(2, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
        List<ApiCall> sends = wecom.sim.apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG);
        assertEquals(List.of(42001, 0), sends.stream().map(c -> c.errcode().orElseThrow()).toList());
        assertEquals(1, wecom.sim.successfulWelcomeSends(code));
    }

    @Test
    void tokenRefusedTwiceIsRetryAfterExactlyOneRetry() {
        wecom.sim.injectApiFault(WeComApiPaths.MESSAGE_SEND, ApiFault.INVALIDATE_TOKEN, 2);

        WeComCallOutcome outcome = api.sendMessage(APP, MessageSendRequest.text("zhangsan", "hi"), wecom.inSeconds(5));

        assertEquals(Kind.RETRY, outcome.kind(), outcome.toString());
        assertEquals(42001, outcome.errcode().getAsInt());
        assertFalse(outcome.effectUnknown());
        assertEquals(2, wecom.sim.calls(WeComApiPaths.MESSAGE_SEND));
        assertEquals(2, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void systemBusyOnSendIsRetryForTheCallerAndNotRetriedByTheClient() {
        wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 1);
        String code = wecom.newWelcomeCode();

        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.RETRY, outcome.kind());
        assertEquals(-1, outcome.errcode().getAsInt());
        assertFalse(outcome.effectUnknown(), "WeCom answered: it did nothing");
        assertEquals(1, wecom.sim.calls(WeComApiPaths.SEND_WELCOME_MSG));
        assertEquals(0, wecom.sim.successfulWelcomeSends(code));
    }

    @Test
    void otherAppSendingAndHttp5xxAreRetry() {
        wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.OTHER_APP_SENDING, 1);
        wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.HTTP_502, 1);
        String code = wecom.newWelcomeCode();

        WeComCallOutcome busy = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));
        WeComCallOutcome gateway = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.RETRY, busy.kind());
        assertEquals(41096, busy.errcode().getAsInt());
        assertEquals(Kind.RETRY, gateway.kind());
        assertEquals(502, gateway.httpStatus());
        assertTrue(gateway.errcode().isEmpty());
    }

    @Test
    void codeAlreadyUsedIs41051AlreadyDone() {
        String code = wecom.newWelcomeCode();
        assertEquals(Kind.DONE, api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10)).kind());

        WeComCallOutcome again = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.ALREADY_DONE, again.kind());
        assertEquals(41051, again.errcode().getAsInt());
        assertTrue(again.done());
        assertEquals(1, wecom.sim.successfulWelcomeSends(code));
    }

    @Test
    void unknownCodeIsGiveUp() {
        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, "never-issued", WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.GIVE_UP, outcome.kind());
        assertEquals(41050, outcome.errcode().getAsInt());
    }

    @Test
    void slowApiPastTheDeadlineIsRetryTimedOutAndNoCallStartsAfterTheDeadline() throws Exception {
        wecom.sim.apiSlowDelay(Duration.ofMillis(2500));
        api.sendMessage(APP, MessageSendRequest.text("zhangsan", "warm the token cache"), wecom.inSeconds(5));
        wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SLOW, 1);
        String code = wecom.newWelcomeCode();
        Instant deadline = wecom.in(Duration.ofMillis(700));

        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, code, WELCOME, deadline);
        Instant returned = Instant.now();

        assertEquals(Kind.RETRY, outcome.kind(), outcome.toString());
        assertTrue(outcome.errmsg().contains("timed out"), outcome.errmsg());
        assertTrue(outcome.effectUnknown(), "a timed-out send is 'maybe sent'");
        assertTrue(returned.isBefore(deadline.plusMillis(300)), "returned at the deadline, not after the slow answer");
        Thread.sleep(Duration.between(Instant.now(), deadline).plusMillis(800).toMillis());
        List<ApiCall> sends = wecom.sim.apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG);
        assertEquals(1, sends.size());
        assertTrue(sends.get(0).at().isBefore(deadline));
        // the simulator did send it: the redelivered attempt learns so from 41051
        assertEquals(1, wecom.sim.successfulWelcomeSends(code));
        assertEquals(Kind.ALREADY_DONE, api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(5)).kind());
    }

    @Test
    void connectionDroppedAfterTheEffectIsRetryWithEffectUnknown() {
        wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.DROP_AFTER_EFFECT, 1);
        String code = wecom.newWelcomeCode();

        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10));

        assertEquals(Kind.RETRY, outcome.kind(), outcome.toString());
        assertTrue(outcome.effectUnknown());
        assertEquals(1, wecom.sim.successfulWelcomeSends(code));
        assertEquals(Kind.ALREADY_DONE, api.sendWelcomeMessage(APP, code, WELCOME, wecom.inSeconds(10)).kind());
    }

    @Test
    void deadlineAlreadyPassedMakesNoCallAtAll() {
        WeComCallOutcome outcome = api.sendWelcomeMessage(APP, wecom.newWelcomeCode(), WELCOME,
                wecom.in(Duration.ofMillis(-1)));

        assertEquals(Kind.RETRY, outcome.kind());
        assertFalse(outcome.effectUnknown());
        assertTrue(wecom.sim.apiCalls().calls().isEmpty());
    }

    @Test
    void callerWaitingForAnotherCallersGettokenStopsAtItsOwnDeadline() throws Exception {
        wecom.sim.apiSlowDelay(Duration.ofMillis(1500));
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.SLOW, 1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<WeComCallOutcome> first = pool.submit(() ->
                    api.sendMessage(APP, MessageSendRequest.text("zhangsan", "first"), wecom.inSeconds(5)));
            Thread.sleep(200); // the first caller now holds the fetch
            long started = System.nanoTime();

            WeComCallOutcome second = api.sendMessage(APP, MessageSendRequest.text("lisi", "second"),
                    wecom.in(Duration.ofMillis(300)));

            assertEquals(Kind.RETRY, second.kind(), second.toString());
            assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 1000);
            assertEquals(Kind.DONE, first.get().kind());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void messageSendCarriesAgentIdTextAndTheCallersExtraFields() {
        MessageSendRequest request = MessageSendRequest.text("zhangsan", "您好")
                .withField("enable_duplicate_check", Json.createValue(1))
                .withField("duplicate_check_interval", Json.createValue(600));

        WeComCallOutcome outcome = api.sendMessage(APP, request, wecom.inSeconds(5));

        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
        assertTrue(outcome.reply().getString("msgid").startsWith("sim-msg-"));
        ApiCall call = wecom.sim.apiCalls().calls(WeComApiPaths.MESSAGE_SEND).get(0);
        assertEquals("zhangsan", call.touser().orElseThrow());
        assertEquals("您好", call.content().orElseThrow());
        assertEquals("1000002", call.extraFields().get("agentid"));
        assertEquals("\"text\"", call.extraFields().get("msgtype"));
        assertEquals("1", call.extraFields().get("enable_duplicate_check"));
        assertEquals("600", call.extraFields().get("duplicate_check_interval"));
    }

    @Test
    void appWithoutCredentialsIsGiveUpWithoutAnyCall() {
        WeComCallOutcome outcome = api.sendMessage("contacts", MessageSendRequest.text("zhangsan", "hi"),
                wecom.inSeconds(5));

        assertEquals(Kind.GIVE_UP, outcome.kind());
        assertTrue(outcome.errmsg().contains("wecom.app.contacts.secret"), outcome.errmsg());
        assertTrue(wecom.sim.apiCalls().calls().isEmpty());
    }

    @Test
    void wrongSecretIsGiveUp() {
        HttpWeComApi wrong = wecom.client("wecom.app.customer.secret", "not-the-secret");

        WeComCallOutcome outcome = wrong.sendMessage(APP, MessageSendRequest.text("zhangsan", "hi"), wecom.inSeconds(5));

        assertEquals(Kind.GIVE_UP, outcome.kind(), outcome.toString());
        assertEquals(40001, outcome.errcode().getAsInt());
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }
}
