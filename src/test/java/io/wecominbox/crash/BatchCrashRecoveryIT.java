package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of Liberty while the crm handler commits batches (many messages, their dedup claims and their
 * outbound messages in one XA transaction), aimed at a batch prepared in PostgreSQL (at least one kill must
 * leave one, else the run proves nothing about recovery), then a restart: every in-doubt branch is resolved
 * and every event has exactly one dedup row and one crm.outbound message.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class BatchCrashRecoveryIT {

    // A backlog the consumers need several seconds for even on an idle machine: with 300 a round, an idle CI
    // machine committed the whole round before the first kill, so the kill never hit a batch.
    private static final int EVENTS = 4000;
    private static final int ROUNDS = 2;
    private static final int PER_ROUND = EVENTS / ROUNDS;
    /** How long a round hunts for a prepared batch, at most (it stops earlier when the round's work is done). */
    private static final Duration HUNT = Duration.ofSeconds(20);

    private static final LibertyProcess LIBERTY = new LibertyProcess();

    @BeforeAll
    static void installApplication() throws Exception {
        LIBERTY.installApplication();
    }

    @AfterAll
    static void stopServer() throws Exception {
        LIBERTY.stop();
        LIBERTY.removeApplication();
    }

    @Test
    void killedWhileBatchesCommitEveryEventEndsWithOneEffectAndNoBranchStaysInDoubt() throws Exception {
        String prefix = "customer:batch-crash-" + UUID.randomUUID() + ":";
        int killsInDoubt = 0;
        int killsIntoWork = 0;
        long inDoubtAtKills = 0;
        long brokerInDoubtAtKills = 0;
        long committedBeforeLastKill = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String roundPrefix = prefix + "r" + round + ":";
            LIBERTY.start();
            // the backlog is waiting before the consumers see it: they take it in batches
            publish(roundPrefix, round * PER_ROUND, PER_ROUND);
            int r = round;
            assertTrue(Poll.until(Duration.ofSeconds(30), () -> committed(roundPrefix) > 0),
                "round " + r + ": the crm consumers commit batches of the backlog");
            // Hunt, frozen, for a batch of this round prepared in PostgreSQL (since the hunt began: not the last
            // round's branches that the restart is still recovering), and kill the server frozen holding it; a
            // round whose backlog is done before one is seen is killed at once (and fails "into work" below).
            long hunt = InDoubt.databaseMillis();
            LIBERTY.killFrozenWhen(HUNT, () -> InDoubt.databaseSince(hunt) > 0 || committed(roundPrefix) >= PER_ROUND);
            // what the dead server left prepared: nothing completes it before the restart
            long leftInDoubt = InDoubt.databaseSince(hunt);
            killsInDoubt += leftInDoubt > 0 ? 1 : 0;
            inDoubtAtKills += leftInDoubt;
            brokerInDoubtAtKills += BrokerConsole.preparedTransactions();
            long roundCommitted = committed(roundPrefix);
            committedBeforeLastKill = committed(prefix);
            if (leftInDoubt > 0 || roundCommitted < PER_ROUND) {
                killsIntoWork++;
            }
        }

        long recoveryStarted = System.nanoTime();
        LIBERTY.start();
        boolean drained = Poll.until(Duration.ofSeconds(240), () -> InDoubt.none() && committed(prefix) == EVENTS);
        long recoverySeconds = Duration.ofNanos(System.nanoTime() - recoveryStarted).toSeconds();
        Poll.sleep(3000); // room for a duplicate to show up

        long dedupRows = committed(prefix);
        Map<String, Long> outbound = BrokerConsole.countMessagesBy("crm.outbound",
            "eventKey LIKE '" + prefix + "%'", "eventKey");
        long doubled = outbound.values().stream().filter(n -> n > 1).count();
        System.out.printf("batch crash summary: events=%d rounds=%d killsIntoWork=%d killsInDoubt=%d "
                + "committedBeforeLastKill=%d dedupRows=%d outboundKeys=%d doubled=%d inDoubtAtKills(pg)=%d "
                + "inDoubtAtKills(broker)=%d recoveredInSeconds=%d%n",
            EVENTS, ROUNDS, killsIntoWork, killsInDoubt, committedBeforeLastKill, dedupRows, outbound.size(), doubled,
            inDoubtAtKills, brokerInDoubtAtKills, recoverySeconds);

        // without a batch in doubt at some kill the test would pass without recovering anything
        assertTrue(killsInDoubt > 0, "a kill left a crm batch prepared in PostgreSQL (kills in doubt=" + killsInDoubt
            + " of " + ROUNDS + ", pg prepared at the kills=" + inDoubtAtKills + ", broker=" + brokerInDoubtAtKills + ")");
        assertEquals(ROUNDS, killsIntoWork, "every kill came while batches were in doubt or work was left");
        assertTrue(drained, "left: pg prepared=" + InDoubt.database() + " broker prepared="
            + BrokerConsole.preparedTransactions() + " dedup rows=" + dedupRows + " of " + EVENTS);
        assertEquals(EVENTS, dedupRows, "every event claimed once");
        assertEquals(EVENTS, outbound.size(), "every event has its crm.outbound message");
        assertEquals(0, doubled, "no event published twice");
    }

    /** Events under this key prefix the crm handler has committed (its dedup rows). */
    private static long committed(String keyPrefix) {
        return Sql.count("SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key LIKE ?",
            keyPrefix + "%");
    }

    private static void publish(String prefix, int from, int n) {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://" + StackEnv.get("BROKER_HOST",
            "127.0.0.1") + ":" + StackEnv.get("BROKER_PORT", "61616"), StackEnv.get("BROKER_USER", "wecom"),
            StackEnv.get("BROKER_PASSWORD", ""));
        try (factory; JMSContext context = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue crm = context.createQueue("wecom.handler.crm");
            for (int i = from; i < from + n; i++) {
                JMSProducer producer = context.createProducer().setProperty("app", "customer")
                    .setProperty("eventType", "text").setProperty("eventKey", prefix + i)
                    .setProperty("callbackLogId", 0L);
                producer.send(crm, "<xml><ToUserName><![CDATA[crash]]></ToUserName><FromUserName><![CDATA[member"
                    + i + "]]></FromUserName><CreateTime>1718000000</CreateTime><MsgType><![CDATA[text]]></MsgType>"
                    + "<Content><![CDATA[batch crash " + i + "]]></Content><MsgId>" + i + "</MsgId></xml>");
            }
            context.commit();
        }
    }
}
