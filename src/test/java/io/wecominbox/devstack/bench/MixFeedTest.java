package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.EventType;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MixFeedTest {

    private static final String AES_KEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
    private static final List<WeComApp> APPS = List.of(
            new WeComApp("customer", "wwcorp1", "tokenOne", AES_KEY, "1000001", "secret1"),
            new WeComApp("contacts", "wwcorp2", "tokenTwo", AES_KEY, "1000002", "secret2"));
    private static final Instant START = Instant.parse("2026-12-02T08:00:00.250Z");

    private final Map<String, Instant> registered = new HashMap<>();
    private final MixFeed feed = new MixFeed(APPS, new EventMix(0.2, APPS.size(), 9), 9,
            (app, code, createTime) -> registered.put(code, createTime));

    @Test
    void eventsAreDueAtTheRateFromTheStart() {
        List<MixFeed.Planned> planned = feed.plan(START, 100, 300);
        assertEquals(0, planned.get(0).offsetNanos());
        assertEquals(10_000_000L, planned.get(1).offsetNanos());
        assertEquals(START.plusSeconds(2).plusMillis(990), planned.get(299).due());
    }

    @Test
    void aSealedCallbackCarriesTheSecondItIsDueAsTimestampAndCreateTimeNotTheSealingTime() throws Exception {
        for (MixFeed.Planned p : feed.plan(START, 50, 200)) {
            long dueSecond = p.due().getEpochSecond();
            Map<String, String> query = query(p.callback().wire().query());
            assertEquals(Long.toString(dueSecond), query.get("timestamp"));
            WeComApp app = APPS.stream().filter(a -> a.name().equals(p.callback().app())).findFirst().orElseThrow();
            WeComCrypto crypto = new WeComCrypto(app.token(), app.encodingAesKey(), app.corpId());
            String encrypt = field(p.callback().wire().body(), "Encrypt");
            String xml = crypto.verifyAndDecrypt(query.get("msg_signature"), query.get("timestamp"),
                    query.get("nonce"), encrypt);
            assertTrue(xml.contains("<CreateTime>" + dueSecond + "</CreateTime>"), xml);
        }
    }

    @Test
    void eachWelcomeCodeIsRegisteredWithTheFakeApiUnderItsEventsCreateTime() {
        List<MixFeed.Planned> planned = feed.plan(START, 100, 500);
        long adds = planned.stream().filter(p -> p.type() == EventType.ADD_EXTERNAL_CONTACT).count();
        assertEquals(100, adds);
        for (MixFeed.Planned p : planned) {
            if (p.welcomeCode() != null) {
                assertEquals(Instant.ofEpochSecond(p.due().getEpochSecond()), registered.get(p.welcomeCode()));
            }
        }
        assertEquals(adds, registered.size());
    }

    @Test
    void bothAppsGetTheirTurn() {
        List<MixFeed.Planned> planned = feed.plan(START, 100, 10);
        assertEquals("customer", planned.get(0).callback().app());
        assertEquals("contacts", planned.get(1).callback().app());
    }

    private static String field(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + "><!\\[CDATA\\[(.*?)]]></" + name + ">").matcher(xml);
        assertTrue(m.find(), xml);
        return m.group(1);
    }

    private static Map<String, String> query(String query) {
        Map<String, String> out = new HashMap<>();
        for (String pair : query.split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        return out;
    }
}
