package io.wecominbox.simulator.platform;

import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.simulator.config.WeComApp;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Seals events exactly as WeCom does, using the app's own WeComCrypto: AES-encrypt the plaintext with the
 * CorpID as receiveid, sign (token, timestamp, nonce, encrypt), wrap in the outer XML with ToUserName and
 * AgentID, and put signature, timestamp and nonce URL-encoded in the query string.
 */
public final class WeComCryptoSealer implements CallbackSealer {

    private final Clock clock;
    private final Random random;
    private final Map<String, WeComCrypto> cryptoByApp = new ConcurrentHashMap<>();

    public WeComCryptoSealer(Clock clock, Random random) {
        this.clock = clock;
        this.random = random;
    }

    @Override
    public SealedCallback seal(WeComApp app, SimEvent event) {
        WeComCrypto crypto = cryptoByApp.computeIfAbsent(app.name(),
                n -> new WeComCrypto(app.token(), app.encodingAesKey(), app.corpId()));
        String encrypt = crypto.encrypt(event.xml());
        String timestamp = Long.toString(clock.instant().getEpochSecond());
        String nonce = Long.toString(1_000_000_000L + (long) (random.nextDouble() * 8_999_999_999L));
        String signature = crypto.signature(timestamp, nonce, encrypt);
        String body = "<xml><ToUserName>" + PlaintextXml.cdata(app.corpId()) + "</ToUserName>"
                + "<AgentID>" + PlaintextXml.cdata(app.agentId()) + "</AgentID>"
                + "<Encrypt>" + PlaintextXml.cdata(encrypt) + "</Encrypt></xml>";
        String query = "msg_signature=" + urlEncode(signature) + "&timestamp=" + urlEncode(timestamp)
                + "&nonce=" + urlEncode(nonce);
        return new SealedCallback(body, query);
    }

    private static String urlEncode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
