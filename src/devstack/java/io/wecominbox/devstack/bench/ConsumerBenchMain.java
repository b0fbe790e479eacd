package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.testsupport.StackEnv;
import jakarta.jms.JMSContext;
import jakarta.jms.Topic;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The consumers alone, on a running stack: events are published to the broker's events topic exactly as the
 * ingest publishes them (the broker's diverts fan them out to every handler queue), with no HTTP and no ACK
 * path, while the simulator plays WeCom's API at a realistic distance. Per step: welcome sent p50/p99 from
 * the publish instant and from the event's CreateTime, welcomes expired, each handler's largest lag, CPU per
 * component. A bench, not a test; run by src/bench/consumer-bench.sh.
 *
 * <p>Arguments: {@code --rates 100,200,400} events/s (half adds with a WelcomeCode, half members' text
 * messages), {@code --seconds 20} per step, {@code --drain-max-seconds 45} after each step, {@code --burst 10000@300} adds only, {@code --crm-backlog 20000}
 * text messages put on the crm queue before a 100/s welcome-only step, {@code --api-port}, {@code
 * --api-latency-ms 100}, {@code --api-jitter-ms 30}, {@code --slow-tail 0.01@3000}, {@code --watch name=pid}.
 */
public final class ConsumerBenchMain {

    private static final String APP = "customer";
    private static final List<String> HANDLERS = List.of("welcome", "crm", "contact", "conversation", "bot");

    private final WeComSimulator sim;
    private final JMSContext jms;
    private final Topic events;
    private final CpuMeter cpu;
    private final ApiTiming timing;
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private long drainMaxNanos = 45_000_000_000L;
    private long sequence;

    private ConsumerBenchMain(WeComSimulator sim, JMSContext jms, CpuMeter cpu, ApiTiming timing) {
        this.sim = sim;
        this.timing = timing;
        this.jms = jms;
        this.events = jms.createTopic("wecom.events");
        this.cpu = cpu;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        Map<String, Long> watch = new LinkedHashMap<>();
        for (String w : o.getOrDefault("watch", "").split(",")) {
            String[] kv = w.split("=", 2);
            if (kv.length == 2 && !kv[1].isBlank()) {
                watch.put(kv[0], Long.parseLong(kv[1].trim()));
            }
        }
        String[] tail = o.getOrDefault("slow-tail", "0.01@3000").split("@");
        ApiTiming timing = new ApiTiming(Duration.ofMillis(Long.parseLong(o.getOrDefault("api-latency-ms", "100"))),
            Duration.ofMillis(Long.parseLong(o.getOrDefault("api-jitter-ms", "30"))), Double.parseDouble(tail[0]),
            Duration.ofMillis(Long.parseLong(tail[1])));
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://" + StackEnv.get("BROKER_HOST",
            "127.0.0.1") + ":" + StackEnv.get("BROKER_PORT", "61616"), StackEnv.get("BROKER_USER", "wecom"),
            StackEnv.get("BROKER_PASSWORD", ""));
        try (WeComSimulator sim = WeComSimulator.builder().config(config)
                .apiPort(Integer.parseInt(o.getOrDefault("api-port", "9092"))).timeScale(1.0)
                .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build().start();
             JMSContext jms = factory.createContext()) {
            sim.apiTiming(timing);
            ConsumerBenchMain bench = new ConsumerBenchMain(sim, jms, new CpuMeter(watch,
                Double.parseDouble(o.getOrDefault("clock-ticks", "100"))), timing);
            bench.drainMaxNanos = Long.parseLong(o.getOrDefault("drain-max-seconds", "45")) * 1_000_000_000L;
            System.out.printf("consumer bench %s: API %s; cores %d%n", bench.run, timing,
                Runtime.getRuntime().availableProcessors());
            int seconds = Integer.parseInt(o.getOrDefault("seconds", "20"));
            bench.step("warm-up", 50, 10, 0.5);
            System.out.println(Step.HEADER);
            for (String rate : o.getOrDefault("rates", "100,200,400").split(",")) {
                System.out.println(bench.step("mix", Double.parseDouble(rate), seconds, 0.5));
            }
            if (o.containsKey("crm-backlog")) {
                System.out.println(bench.step("adds, no backlog", 100, seconds, 1.0));
                bench.crmBacklog(Integer.parseInt(o.get("crm-backlog")));
                System.out.println(bench.step("adds, crm backlog " + o.get("crm-backlog"), 100, seconds, 1.0));
            }
            if (o.containsKey("burst")) {
                String[] b = o.get("burst").split("@");
                double rate = Double.parseDouble(b[1]);
                System.out.println(bench.step("burst " + b[0] + " adds", rate, (int) Math.round(Integer.parseInt(b[0])
                    / rate), 1.0));
            }
        }
    }

    /** Publishes at {@code rate}/s for {@code seconds}: {@code addShare} adds, the rest text messages. */
    private Step step(String name, double rate, int seconds, double addShare) throws Exception {
        sim.reset(); // forgets the timing too
        sim.apiTiming(timing);
        Map<String, Long> publishedAt = new HashMap<>(); // welcome code -> publish epoch millis
        Map<String, Long> createTimes = new HashMap<>();
        Map<String, Long> lag = new LinkedHashMap<>();
        HANDLERS.forEach(h -> lag.put(h, 0L));
        // the rate in the key too: two steps of one name must not share event keys (dedup would drop them)
        String prefix = APP + ":bench:" + run + ":" + name.replace(' ', '_') + "@" + (int) rate + ":";
        int total = (int) Math.round(rate * seconds);
        CpuMeter.Reading before = cpu.read();
        long start = System.nanoTime();
        long nextSample = start;
        int adds = 0;
        for (int i = 0; i < total; i++) {
            long due = start + (long) (i * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            boolean add = addShare >= 1.0 || i % 2 == 1;
            if (add) {
                adds++;
                String code = "bench" + run + (sequence++) + "welcomecode";
                long createTime = System.currentTimeMillis() / 1000;
                sim.welcomeCodes().register(APP, code, Instant.ofEpochSecond(createTime));
                publish("change_external_contact", prefix + "add:" + i, addXml(code, createTime, i));
                publishedAt.put(code, System.currentTimeMillis());
                createTimes.put(code, createTime);
            } else {
                publish("text", prefix + "msg:" + i, textXml(i));
            }
            if (System.nanoTime() >= nextSample) {
                sampleLag(prefix, i + 1, adds, lag);
                nextSample = System.nanoTime() + 2_000_000_000L;
            }
        }
        double publishSeconds = (System.nanoTime() - start) / 1e9;
        CpuMeter.Reading afterPublish = cpu.read();
        // drain: every welcome has its 20 s window, crm as long as it needs (at most --drain-max-seconds, 45)
        long drainStart = System.nanoTime();
        while (System.nanoTime() - drainStart < drainMaxNanos) {
            Map<String, Long> done = processed(prefix);
            if (done.getOrDefault("welcome", 0L) >= adds && done.getOrDefault("crm", 0L) >= total) {
                break;
            }
            Thread.sleep(500);
        }
        double drainSeconds = (System.nanoTime() - drainStart) / 1e9;
        Map<String, ApiCall> sends = new HashMap<>();
        for (ApiCall call : sim.apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG)) {
            if (call.succeeded()) {
                call.welcomeCode().ifPresent(c -> sends.putIfAbsent(c, call));
            }
        }
        LatencySamples fromPublish = new LatencySamples();
        LatencySamples fromCreate = new LatencySamples();
        publishedAt.forEach((code, at) -> {
            ApiCall call = sends.get(code);
            if (call != null) {
                fromPublish.add((call.at().toEpochMilli() - at) * 1_000_000L);
                fromCreate.add((call.at().toEpochMilli() - createTimes.get(code) * 1000) * 1_000_000L);
            }
        });
        return new Step(name, rate, total / publishSeconds, adds, sends.size(), expired(prefix),
            fromPublish.summary(), fromCreate.summary(), lag, drainSeconds, cpu.usage(before, afterPublish));
    }

    /** n text messages straight onto the crm queue, committed 500 at a time (a backlog only crm has). */
    private void crmBacklog(int n) {
        try (JMSContext tx = jms.createContext(JMSContext.SESSION_TRANSACTED)) {
            HandlerBacklog.put(tx, APP, run, n, List.of("crm"));
        }
        System.out.println("put " + n + " text messages on wecom.handler.crm");
    }

    private void publish(String eventType, String eventKey, String xml) {
        jms.createProducer().setProperty("app", APP).setProperty("eventType", eventType)
            .setProperty("eventKey", eventKey).setProperty("callbackLogId", 0L).send(events, xml);
    }

    private static String addXml(String code, long createTime, int i) {
        return "<xml><ToUserName><![CDATA[bench]]></ToUserName><FromUserName><![CDATA[sys]]></FromUserName>"
            + "<CreateTime>" + createTime + "</CreateTime><MsgType><![CDATA[event]]></MsgType>"
            + "<Event><![CDATA[change_external_contact]]></Event><ChangeType><![CDATA[add_external_contact]]>"
            + "</ChangeType><UserID><![CDATA[bench.user]]></UserID><ExternalUserID><![CDATA[wmbench" + i
            + "]]></ExternalUserID><State><![CDATA[bench]]></State><WelcomeCode><![CDATA[" + code
            + "]]></WelcomeCode></xml>";
    }

    private String textXml(int i) {
        return "<xml><ToUserName><![CDATA[bench]]></ToUserName><FromUserName><![CDATA[bench.member" + (i % 50)
            + "]]></FromUserName><CreateTime>" + (System.currentTimeMillis() / 1000) + "</CreateTime>"
            + "<MsgType><![CDATA[text]]></MsgType><Content><![CDATA[bench message " + i + "]]></Content>"
            + "<MsgId>" + run.hashCode() + (sequence++) + "</MsgId><AgentID>1000002</AgentID></xml>";
    }

    /** Published minus committed per handler (from handler_dedup; welcome from welcome_send_log). */
    private void sampleLag(String prefix, int published, int adds, Map<String, Long> lag) throws Exception {
        Map<String, Long> done = processed(prefix);
        for (String handler : List.of("welcome", "crm")) {
            long expected = handler.equals("welcome") ? adds : published;
            lag.merge(handler, expected - done.getOrDefault(handler, 0L), Math::max);
        }
    }

    private static Map<String, Long> processed(String prefix) throws Exception {
        Map<String, Long> done = new HashMap<>();
        try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
                "SELECT handler, count(*) FROM handler_dedup WHERE event_key LIKE ? GROUP BY handler")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    done.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM welcome_send_log WHERE event_key LIKE ?")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                done.put("welcome", rs.getLong(1));
            }
        }
        return done;
    }

    private static long expired(String prefix) throws Exception {
        try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM welcome_send_log WHERE event_key LIKE ? AND status = 'EXPIRED'")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            String key = args[i].replaceFirst("^--", "");
            o.merge(key, args[i + 1], (a, b) -> a + "," + b);
        }
        return o;
    }

    private record Step(String name, double rate, double achieved, int adds, int sent, long expired,
                        LatencySamples.Summary fromPublish, LatencySamples.Summary fromCreate,
                        Map<String, Long> lag, double drainSeconds, Map<String, Double> cpu) {

        static final String HEADER = "| step | rate/s | achieved/s | adds | sent | expired | welcome p50 / p99 ms"
            + " (publish) | p50 / p99 ms (CreateTime) | max lag welcome / crm | drain s | CPU % of a core |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|";

        @Override
        public String toString() {
            List<String> c = new ArrayList<>();
            cpu.forEach((k, v) -> c.add(k + " " + Math.round(v)));
            return String.format("| %s | %.0f | %.0f | %d | %d | %d | %.0f / %.0f | %.0f / %.0f | %d / %d | %.1f | %s |",
                name, rate, achieved, adds, sent, expired, fromPublish.p50(), fromPublish.p99(), fromCreate.p50(),
                fromCreate.p99(), lag.get("welcome"), lag.get("crm"), drainSeconds, String.join(", ", c));
        }
    }
}
