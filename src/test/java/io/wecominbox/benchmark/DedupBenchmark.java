package io.wecominbox.benchmark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * NOT a test (no timing is asserted): `mvn -Pbenchmark verify` runs it on the real stack and prints the
 * per-message cost of the crm handler for a first processing, a hot-tier duplicate and a cold-tier duplicate,
 * measured side by side in alternating rounds. Each round puts N messages on wecom.handler.crm in one
 * commit and times from that commit until the server has counted N more dispositions of that kind
 * (GET /metrics, polled every 5 ms), so the cost includes the consumer's whole XA transaction and commit. Results go to docs/benchmarks.md by hand.
 */
@ExtendWith(ArquillianExtension.class)
class DedupBenchmark {

    private static final int MESSAGES = Integer.getInteger("bench.messages", 500);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final Pattern COUNTER = Pattern.compile(
        "wecom_handler_dispositions_total\\{([^}]*)}\\s+([0-9.E]+)");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void firstProcessingVersusHotAndColdDuplicates() throws Exception {
        // a long hot window for crm (the test drop-in sets 8 s), applied live by Liberty
        Path dropIn = StackEnv.buildDir().resolve("liberty/wlp/usr/servers")
            .resolve(System.getProperty("wecom.liberty.server")).resolve("configDropins/overrides/zz-bench.xml");
        Files.writeString(dropIn, "<server><variable name=\"wecom.handler.crm.hot-window\" value=\"PT1H\"/></server>");
        try (RedisClient redis = RedisClient.create(StackEnv.get("REDIS_HOST", "127.0.0.1"),
                 Integer.parseInt(StackEnv.get("REDIS_PORT", "6379")));
             Connection jms = connectionFactory().createConnection()) {
            // without it the "hot" rounds would measure crm's 8 s test window, not the hot tier
            assertTrue(Poll.until(Duration.ofSeconds(30),
                () -> Http.getAsAdmin("/api/ops/handlers").body().contains("PT1H")),
                "Liberty applied the benchmark's drop-in (crm hot window PT1H) within 30 s");
            Session session = jms.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue("wecom.handler.crm"));
            run(session, producer, redis, 50, false); // warm-up: JIT, pools, caches
            List<double[]> results = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                results.add(run(session, producer, redis, MESSAGES, true));
            }
            report(results);
        } finally {
            Files.deleteIfExists(dropIn);
        }
    }

    /** One round: first, hot duplicate, cold duplicate (hot keys removed); per-message ms of each. */
    private double[] run(Session session, MessageProducer producer, RedisClient redis, int n, boolean print)
            throws Exception {
        List<String> msgIds = new ArrayList<>();
        long base = System.currentTimeMillis() * 1000;
        for (int i = 0; i < n; i++) {
            msgIds.add(Long.toString(base + i));
        }
        double first = timed(session, producer, msgIds, "PROCESSED");
        double hot = timed(session, producer, msgIds, "DUPLICATE_HOT");
        for (String msgId : msgIds) {
            redis.del("wecom:crm:bench:msg:" + msgId); // as if the hot window had passed
        }
        double cold = timed(session, producer, msgIds, "DUPLICATE_COLD");
        if (print) {
            System.out.printf(Locale.ROOT, "round: first %.2f ms, hot duplicate %.2f ms, cold duplicate %.2f ms"
                + " per message (N=%d)%n", first, hot, cold, n);
        }
        return new double[] {first, hot, cold};
    }

    private double timed(Session session, MessageProducer producer, List<String> msgIds, String disposition)
            throws Exception {
        double before = counter(disposition);
        for (String msgId : msgIds) {
            TextMessage message = session.createTextMessage(SampleEvents.textMessage(msgId, "benchmark"));
            message.setStringProperty("app", "bench");
            message.setStringProperty("eventType", "text");
            message.setStringProperty("eventKey", "bench:msg:" + msgId);
            message.setLongProperty("callbackLogId", 0L);
            producer.send(message);
        }
        session.commit(); // nothing is consumable before this: the clock starts here
        long started = System.nanoTime();
        long deadline = started + Duration.ofMinutes(5).toNanos();
        while (counter(disposition) < before + msgIds.size()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(disposition + ": only " + (counter(disposition) - before) + " counted");
            }
            Poll.sleep(5);
        }
        return (System.nanoTime() - started) / 1e6 / msgIds.size();
    }

    private static double counter(String disposition) {
        String body = Http.applicationMetrics().body();
        Matcher m = COUNTER.matcher(body);
        while (m.find()) {
            if (m.group(1).contains("handler=\"crm\"") && m.group(1).contains("disposition=\"" + disposition + "\"")) {
                return Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }

    private static void report(List<double[]> rounds) {
        double[] median = new double[3];
        for (int k = 0; k < 3; k++) {
            final int kind = k;
            List<Double> values = rounds.stream().map(r -> r[kind]).sorted().toList();
            median[k] = values.get(values.size() / 2);
        }
        System.out.printf(Locale.ROOT, "%nDEDUP BENCHMARK (crm handler, medians of %d rounds, N=%d)%n"
            + "| first processing | hot duplicate | cold duplicate | hot / first | cold / first |%n"
            + "| %.2f ms | %.2f ms | %.2f ms | %.2f | %.2f |%n%n", rounds.size(), MESSAGES, median[0], median[1],
            median[2], median[1] / median[0], median[2] / median[0]);
    }

    private static ActiveMQConnectionFactory connectionFactory() {
        return new ActiveMQConnectionFactory("tcp://" + StackEnv.get("BROKER_HOST", "127.0.0.1") + ":"
            + StackEnv.get("BROKER_PORT", "61616"), StackEnv.get("BROKER_USER", "wecom"),
            StackEnv.get("BROKER_PASSWORD", ""));
    }
}
