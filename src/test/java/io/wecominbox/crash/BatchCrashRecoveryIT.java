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
 * outbound messages in one XA transaction), preferably while one is prepared, then a restart: every in-doubt
 * branch is resolved and every event has exactly one dedup row and one crm.outbound message.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class BatchCrashRecoveryIT {

    // A backlog the consumers need several seconds for even on an idle machine: with 300 a round, an idle CI
    // machine committed the whole round before the first kill, so the kill never hit a batch.
    private static final int EVENTS = 4000;
    private static final int ROUNDS = 2;

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
            LIBERTY.start();
            // the backlog is waiting before the consumers see it: they take it in batches
            publish(prefix, round * EVENTS / ROUNDS, EVENTS / ROUNDS);
            Poll.until(Duration.ofSeconds(30), () -> Sql.count(
                "SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key LIKE ?", prefix + "%") > 0);
            // a short hunt: the kill must come while the backlog is still being worked on
            boolean inDoubt = LIBERTY.killInDoubt(Duration.ofSeconds(3), () -> InDoubt.database() > 0);
            killsInDoubt += inDoubt ? 1 : 0;
            inDoubtAtKills += InDoubt.database();
            brokerInDoubtAtKills += BrokerConsole.preparedTransactions();
            committedBeforeLastKill = Sql.count(
                "SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key LIKE ?", prefix + "%");
            if (inDoubt || committedBeforeLastKill < (long) (round + 1) * EVENTS / ROUNDS) {
                killsIntoWork++;
            }
        }

        long recoveryStarted = System.nanoTime();
        LIBERTY.start();
        boolean drained = Poll.until(Duration.ofSeconds(240), () -> InDoubt.none()
                && Sql.count("SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key LIKE ?",
                    prefix + "%") == EVENTS);
        long recoverySeconds = Duration.ofNanos(System.nanoTime() - recoveryStarted).toSeconds();
        Poll.sleep(3000); // room for a duplicate to show up

        long dedupRows = Sql.count("SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key LIKE ?",
            prefix + "%");
        Map<String, Long> outbound = BrokerConsole.countMessagesBy("crm.outbound",
            "eventKey LIKE '" + prefix + "%'", "eventKey");
        long doubled = outbound.values().stream().filter(n -> n > 1).count();
        System.out.printf("batch crash summary: events=%d rounds=%d killsIntoWork=%d killsInDoubt=%d "
                + "committedBeforeLastKill=%d dedupRows=%d outboundKeys=%d doubled=%d inDoubtAtKills(pg)=%d "
                + "inDoubtAtKills(broker)=%d recoveredInSeconds=%d%n",
            EVENTS, ROUNDS, killsIntoWork, killsInDoubt, committedBeforeLastKill, dedupRows, outbound.size(), doubled,
            inDoubtAtKills, brokerInDoubtAtKills, recoverySeconds);

        assertTrue(drained, "left: pg prepared=" + InDoubt.database() + " broker prepared="
            + BrokerConsole.preparedTransactions() + " dedup rows=" + dedupRows + " of " + EVENTS);
        assertEquals(EVENTS, dedupRows, "every event claimed once");
        assertEquals(EVENTS, outbound.size(), "every event has its crm.outbound message");
        assertEquals(0, doubled, "no event published twice");
        assertEquals(ROUNDS, killsIntoWork, "every kill came while batches were in doubt or work was left");
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
