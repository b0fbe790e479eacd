package io.wecominbox.simulator.platform;

import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WeComCryptoSealerTest {

    private final WeComApp app = new WeComApp("customer", "wwcorp123", "tokenABC", EncodingAesKeys.generate(), "1000002", "s");
    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_714_550_400L));
    private final SimEvent event = new EventFactory(clock, new Random(1), WelcomeCodeListener.NONE)
            .create(app, EventType.ADD_EXTERNAL_CONTACT);

    @Test
    void sealedCallbackDecryptsWithTheAppsCredentialsAndCarriesAValidSignature() throws Exception {
        SealedCallback sealed = new WeComCryptoSealer(clock, new Random(2)).seal(app, event);

        assertTrue(sealed.body().startsWith("<xml><ToUserName><![CDATA[wwcorp123]]></ToUserName>"
                + "<AgentID><![CDATA[1000002]]></AgentID><Encrypt><![CDATA["), sealed.body());
        Matcher m = Pattern.compile("<Encrypt><!\\[CDATA\\[(.*)]]></Encrypt>").matcher(sealed.body());
        assertTrue(m.find());
        String encrypt = m.group(1);
        Map<String, String> query = new HashMap<>();
        for (String pair : sealed.query().split("&")) {
            String[] kv = pair.split("=", 2);
            query.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        assertEquals(String.valueOf(clock.instant().getEpochSecond()), query.get("timestamp"));
        WeComCrypto crypto = new WeComCrypto(app.token(), app.encodingAesKey(), app.corpId());
        assertEquals(crypto.signature(query.get("timestamp"), query.get("nonce"), encrypt), query.get("msg_signature"));
        assertEquals(event.xml(), crypto.decrypt(encrypt));
    }
}
