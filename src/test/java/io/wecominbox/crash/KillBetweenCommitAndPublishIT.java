package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.LibertyAndWeComExtension;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of Liberty after a callback's row committed and before the relay published it (the test
 * deployment's HoldPublications stops the relay there): WeCom got its 200, and after the restart the row is
 * published by the relay without any new callback and processed exactly once. Before the kill, the same hold
 * shows that a welcome does not wait for the text messages before it: it has a relay lane of its own.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KillBetweenCommitAndPublishIT {

    private static final String MARKER = "held-" + UUID.randomUUID();
    private static final Path HOLD = holdPublications(MARKER);

    @RegisterExtension
    static final LibertyAndWeComExtension STACK = new LibertyAndWeComExtension();
    private static final LibertyProcess LIBERTY = STACK.liberty();

    @Test
    @Order(1)
    void aWelcomeIsSentWhileTheRelayHoldsATextMessageThatArrivedBeforeIt() throws Exception {
        String key = postHeldTextMessage(Long.toString(System.currentTimeMillis()) + "3", "hold the relay's other lane");

        SimEvent added = STACK.wecom().newContactAddedBy("customer", "lane" + UUID.randomUUID().toString()
            .substring(0, 6), true);
        assertTrue(STACK.wecom().deliver(added).acknowledged(), "the add answered");
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> STACK.wecom().successfulWelcomeSends(added.welcomeCode()) == 1),
            "the welcome sent, on the deadline lane");
        assertEquals(1, unpublished(key), "while the text message before it is still held on the other lane");
    }

    @Test
    @Order(2)
    void aRowCommittedButNotPublishedWhenTheServerDiesIsPublishedOnceAfterTheRestart() throws Exception {
        String msgId = Long.toString(System.currentTimeMillis()) + "7";
        String key = postHeldTextMessage(msgId, "kill me before I am published");

        LIBERTY.kill();
        Files.delete(HOLD);
        LIBERTY.start();

        assertTrue(Poll.until(Duration.ofSeconds(60), () ->
                Sql.count("SELECT count(*) FROM callback_log WHERE event_key = ? AND published_at IS NOT NULL", key) == 1),
            "published by the relay after the restart");
        assertTrue(Poll.until(Duration.ofSeconds(60), () ->
                Sql.count("SELECT count(*) FROM conversation_message WHERE msg_id = ?", msgId) == 1),
            "processed by its handler");
        String dispositions = "SELECT count(*) FROM handler_disposition WHERE event_key = ? AND handler = 'conversation'";
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> Sql.count(dispositions, key) >= 1), "its disposition");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(5), () -> Sql.count(dispositions, key) == 1),
            "exactly one delivery reached the handler");
    }

    /** A text message the test deployment's relay holds: answered 200, committed before that, never published. */
    private static String postHeldTextMessage(String msgId, String content) throws Exception {
        String key = "customer:msg:" + msgId;
        assertEquals(200, new CallbackClient().post("customer", SignedCallbacks.forStackApp("customer")
            .post(SampleEvents.textMessage(msgId, content + " " + MARKER))).statusCode());
        assertEquals(1, Sql.count("SELECT count(*) FROM callback_log WHERE event_key = ?", key), "committed before the 200");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(3), () -> unpublished(key) == 1), "held: committed, not published");
        return key;
    }

    private static long unpublished(String key) {
        return Sql.count("SELECT count(*) FROM callback_log WHERE event_key = ? AND published_at IS NULL", key);
    }

    /** A config drop-in read at the server's start; the test deletes it before the restart. */
    private static Path holdPublications(String marker) {
        Path dropIn = StackEnv.buildDir().resolve("liberty/wlp/usr/servers/"
            + System.getProperty("wecom.liberty.server", "wecomInboxTest") + "/configDropins/overrides/hold-publication.xml");
        try {
            Files.createDirectories(dropIn.getParent());
            Files.writeString(dropIn, """
                <server>
                  <variable name="wecom.chaos.hold-publication.marker" value="%s"/>
                </server>
                """.formatted(marker));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dropIn;
    }
}
