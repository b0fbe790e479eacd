package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testhooks.HoldCommits;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * From outside the server: both group-commit writers held at their commit for a while (the test deployment's
 * {@code HoldCommits}), one delivery each, placed one after the other so that each writer takes one. What a
 * stalled database does to the ACK path, without a race.
 */
public final class HeldWriters {

    private final SignedCallbacks wecom;
    private final CallbackClient client = new CallbackClient();
    private final String app;

    public HeldWriters(String app) {
        this.app = app;
        this.wecom = SignedCallbacks.forStackApp(app);
    }

    /** Holds both writers for {@code millis}; the two deliveries' answers (503 after the commit bound). */
    public List<CompletableFuture<HttpResponse<String>>> holdBoth(String msgIdPrefix, int millis) {
        CompletableFuture<HttpResponse<String>> first = post(msgIdPrefix + "1",
            "CHAOS_HOLD_COMMIT*" + millis + " first writer");
        awaitHeld(1);
        CompletableFuture<HttpResponse<String>> second = post(msgIdPrefix + "2",
            "CHAOS_HOLD_COMMIT*" + millis + " second writer");
        awaitHeld(2);
        return List.of(first, second);
    }

    /** A member's text message with this id, posted as WeCom does; its answer. */
    public CompletableFuture<HttpResponse<String>> post(String msgId, String content) {
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, content));
        return CompletableFuture.supplyAsync(() -> client.post(app, wire));
    }

    /** The writers held right now, counted in PostgreSQL. */
    public static long held() {
        return Sql.count(HoldCommits.HELD_WRITERS);
    }

    /** Waits until both are free again (their commits went through). */
    public static void awaitReleased() {
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> held() == 0), "the held writers commit at the end of"
            + " their stall: still held " + held());
    }

    private static void awaitHeld(int writers) {
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> held() >= writers),
            writers + " writer(s) held at their commit: " + held());
    }
}
