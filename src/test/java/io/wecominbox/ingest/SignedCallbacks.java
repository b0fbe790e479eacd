package io.wecominbox.ingest;

import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.testsupport.StackEnv;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Builds callbacks as WeCom sends them (encrypted, signed, URL-encoded) for one app's settings, plus the
 * broken variants the bad-input tests need: a valid signature over a bad Encrypt, bad padding, another corp.
 */
public final class SignedCallbacks {

    private static final AtomicLong NONCES = new AtomicLong(System.nanoTime() % 1_000_000_000L);

    private final String token;
    private final String encodingAesKey;
    private final String corpId;
    private final String agentId;
    private final WeComCrypto crypto;

    public SignedCallbacks(String token, String encodingAesKey, String corpId, String agentId) {
        this.token = token;
        this.encodingAesKey = encodingAesKey;
        this.corpId = corpId;
        this.agentId = agentId;
        this.crypto = new WeComCrypto(token, encodingAesKey, corpId);
    }

    /** The dev stack's settings for an app (the same environment the server got through server.env). */
    public static SignedCallbacks forStackApp(String app) {
        return new SignedCallbacks(require(app, "token"), require(app, "encoding-aes-key"), require(app, "corp-id"),
                require(app, "agent-id"));
    }

    private static String require(String app, String suffix) {
        String value = StackEnv.wecomApp(app, suffix);
        if (value == null) {
            throw new IllegalStateException("wecom.app." + app + "." + suffix + " is not set: run the dev stack first");
        }
        return value;
    }

    public String corpId() {
        return corpId;
    }

    /** A POST as WeCom would send it, stamped now. */
    public Wire post(String plaintextXml) {
        return postEncrypt(crypto.encrypt(plaintextXml));
    }

    /** A POST whose Encrypt is exactly {@code encrypt}, correctly signed: gets past the signature check. */
    public Wire postEncrypt(String encrypt) {
        return postEncryptStampedAt(encrypt, System.currentTimeMillis() / 1000);
    }

    /**
     * A POST correctly signed with the given {@code timestamp} (epoch seconds): what a replay of a captured
     * request looks like, refused as stale_timestamp outside the server's window (300 s by default).
     */
    public Wire postStampedAt(String plaintextXml, long timestamp) {
        return postEncryptStampedAt(crypto.encrypt(plaintextXml), timestamp);
    }

    private Wire postEncryptStampedAt(String encrypt, long epochSecond) {
        String timestamp = Long.toString(epochSecond);
        String nonce = Long.toString(NONCES.incrementAndGet());
        return new Wire(query(crypto.signature(timestamp, nonce, encrypt), timestamp, nonce, null),
                envelope(encrypt));
    }

    /** A GET URL verification for {@code echo}; {@code encodePlus} false leaves '+' raw as some senders do. */
    public String verificationQuery(String echo, boolean encodePlus) {
        String echostr = crypto.encrypt(echo);
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Long.toString(NONCES.incrementAndGet());
        String signature = crypto.signature(timestamp, nonce, echostr);
        String encoded = encodePlus ? encode(echostr) : echostr.replace("/", "%2F").replace("=", "%3D");
        return "msg_signature=" + signature + "&timestamp=" + timestamp + "&nonce=" + nonce + "&echostr=" + encoded;
    }

    /** Encrypt for another corp with this app's key: signature and padding fine, receiveid wrong. */
    public String encryptForOtherCorp(String plaintextXml) {
        return new WeComCrypto(token, encodingAesKey, "wwffffffffffffffff").encrypt(plaintextXml);
    }

    /** Encrypts {@code message} exactly as given (not necessarily UTF-8) the way WeCom frames a message. */
    public String encryptBytes(byte[] message) {
        byte[] receiver = corpId.getBytes(StandardCharsets.UTF_8);
        int length = 20 + message.length + receiver.length;
        int pad = 32 - length % 32; // PKCS#7 to 32-byte blocks, 1..32
        java.nio.ByteBuffer plain = java.nio.ByteBuffer.allocate(length + pad);
        plain.put(new byte[16]).putInt(message.length).put(message).put(receiver);
        while (plain.hasRemaining()) {
            plain.put((byte) pad);
        }
        try {
            byte[] key = Base64.getDecoder().decode(encodingAesKey + "=");
            Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(Arrays.copyOf(key, 16)));
            return Base64.getEncoder().encodeToString(cipher.doFinal(plain.array()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One AES block pair whose last byte (0) is no valid 32-byte PKCS#7 pad. */
    public String encryptWithBadPadding() {
        try {
            byte[] key = Base64.getDecoder().decode(encodingAesKey + "=");
            Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(Arrays.copyOf(key, 16)));
            return Base64.getEncoder().encodeToString(cipher.doFinal(new byte[32]));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public String envelope(String encrypt) {
        return "<xml><ToUserName><![CDATA[" + corpId + "]]></ToUserName><AgentID><![CDATA[" + agentId
                + "]]></AgentID><Encrypt><![CDATA[" + encrypt + "]]></Encrypt></xml>";
    }

    static String query(String signature, String timestamp, String nonce, String echostr) {
        return "msg_signature=" + encode(signature) + "&timestamp=" + encode(timestamp) + "&nonce=" + encode(nonce)
                + (echostr == null ? "" : "&echostr=" + encode(echostr));
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** What goes on the wire: the query string (URL-encoded) and the body. */
    public record Wire(String query, String body) {
    }
}
