package io.wecominbox.wecom;

import static io.wecominbox.wecom.SimulatedWeCom.APP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.testing.MutableClock;
import io.wecominbox.wecom.WeComCallOutcome.Kind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The token cache through the client, against the simulator on a clock the test moves. */
class AccessTokenCacheTest {

    private static final MessageSendRequest HELLO = MessageSendRequest.text("zhangsan", "hello");

    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_700_000_000L));
    private final SimulatedWeCom wecom = new SimulatedWeCom(clock);

    @AfterEach
    void stop() {
        wecom.close();
    }

    @Test
    void tokenIsReusedUntil80PercentOfItsLifetimeThenFetchedAgain() {
        HttpWeComApi api = wecom.client();
        send(api);
        clock.advance(Duration.ofSeconds(5759)); // 80 % of 7200 s is 5760 s
        send(api);
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));

        clock.advance(Duration.ofSeconds(2));
        send(api);

        assertEquals(2, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void oldTokenStillWorksWhenTheEarlyRefreshFails() {
        HttpWeComApi api = wecom.client("wecom.api.gettoken-busy-retries", "0");
        send(api);
        clock.advance(Duration.ofSeconds(6000));
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.HTTP_500, 1);

        WeComCallOutcome outcome = api.sendMessage(APP, HELLO, wecom.inSeconds(5));

        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
        assertEquals(2, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void gettokenSystemBusyIsRetriedWithinTheDeadline() {
        HttpWeComApi api = wecom.client("wecom.api.gettoken-busy-pause-ms", "20");
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.SYSTEM_BUSY, 2);

        WeComCallOutcome outcome = api.sendMessage(APP, HELLO, wecom.inSeconds(5));

        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
        assertEquals(3, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    @Test
    void gettokenSystemBusyIsNotRetriedWhenThePauseWouldPassTheDeadline() {
        // the test clock stands still: a deadline 150 ms away stays 150 ms away, shorter than the 200 ms pause
        HttpWeComApi api = wecom.client("wecom.api.gettoken-busy-pause-ms", "200");
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.SYSTEM_BUSY, 3);

        WeComCallOutcome outcome = api.sendMessage(APP, HELLO, wecom.in(Duration.ofMillis(150)));

        assertEquals(Kind.RETRY, outcome.kind());
        assertEquals(-1, outcome.errcode().getAsInt());
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
        assertEquals(0, wecom.sim.calls(WeComApiPaths.MESSAGE_SEND));
    }

    @Test
    void gettokenBacksOffAfterRepeatedFailuresAndDoublesTheBackoff() {
        HttpWeComApi api = wecom.client("wecom.api.gettoken-failures-before-backoff", "3",
                "wecom.api.gettoken-busy-retries", "2", "wecom.api.gettoken-busy-pause-ms", "10",
                "wecom.api.gettoken-backoff-initial-ms", "60000");
        wecom.sim.injectApiFault(WeComApiPaths.GET_TOKEN, ApiFault.SYSTEM_BUSY, 100);

        assertEquals(Kind.RETRY, api.sendMessage(APP, HELLO, wecom.inSeconds(5)).kind());
        assertEquals(3, wecom.sim.calls(WeComApiPaths.GET_TOKEN));

        WeComCallOutcome blocked = api.sendMessage(APP, HELLO, wecom.inSeconds(5));
        assertEquals(Kind.RETRY, blocked.kind());
        assertTrue(blocked.errmsg().contains("backing off"), blocked.errmsg());
        assertEquals(3, wecom.sim.calls(WeComApiPaths.GET_TOKEN), "no gettoken while backing off");

        clock.advance(Duration.ofSeconds(61));
        assertEquals(Kind.RETRY, api.sendMessage(APP, HELLO, wecom.inSeconds(5)).kind());
        assertEquals(4, wecom.sim.calls(WeComApiPaths.GET_TOKEN), "one probe after the back-off, then 120 s more");
        clock.advance(Duration.ofSeconds(61));
        api.sendMessage(APP, HELLO, wecom.inSeconds(5));
        assertEquals(4, wecom.sim.calls(WeComApiPaths.GET_TOKEN));

        wecom.sim.reset();
        clock.advance(Duration.ofSeconds(60));
        assertEquals(Kind.DONE, api.sendMessage(APP, HELLO, wecom.inSeconds(5)).kind());
        assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
    }

    private void send(HttpWeComApi api) {
        WeComCallOutcome outcome = api.sendMessage(APP, HELLO, wecom.inSeconds(5));
        assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
    }
}
