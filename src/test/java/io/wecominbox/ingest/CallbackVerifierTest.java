package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wecominbox.crypto.CallbackCryptoException;
import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.event.SampleEvents;
import io.wecominbox.wecom.WeComApp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CallbackVerifierTest {

    // Tencent's official callback sample (protocol notes, "One official test vector").
    private static final WeComApp OFFICIAL = new WeComApp("official", "wx5823bf96d3bd56c7", "218",
            new WeComCrypto("QDG6eK", "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C", "wx5823bf96d3bd56c7"));
    private static final String OFFICIAL_ECHOSTR =
            "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==";
    private static final String OFFICIAL_SIGNED = "msg_signature=5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3"
            + "&timestamp=1409659589&nonce=263014780&echostr=";

    private static final String TOKEN = "demoToken123";
    private static final String KEY = EncodingAesKeys.generate();
    private static final WeComApp APP = new WeComApp("customer", SampleEvents.CORP_ID, SampleEvents.AGENT_ID,
            new WeComCrypto(TOKEN, KEY, SampleEvents.CORP_ID));
    private static final SignedCallbacks WECOM = new SignedCallbacks(TOKEN, KEY, SampleEvents.CORP_ID, SampleEvents.AGENT_ID);
    private static final String EVENT = SampleEvents.textMessage("4561255354251345929", "hello");

    // The replay guard as deployed (on, default width); requests from SignedCallbacks are stamped now.
    private static final Duration DEFAULT_WINDOW =
            Duration.ofSeconds(Long.parseLong(IngestSettings.DEFAULT_TIMESTAMP_WINDOW_SECONDS));
    private final CallbackVerifier verifier = new CallbackVerifier(new TimestampWindow(Clock.systemUTC(), DEFAULT_WINDOW));
    // The official vector was signed in 2014: with the clock moved to a minute after its timestamp it is fresh.
    private final CallbackVerifier whenTheVectorWasSigned = new CallbackVerifier(new TimestampWindow(
            Clock.fixed(Instant.ofEpochSecond(1_409_659_589L + 60), ZoneOffset.UTC), DEFAULT_WINDOW));

    @Test
    void officialVectorPassesUrlVerificationWithEncodedOrRawPlus() throws Exception {
        String encoded = SignedCallbacks.encode(OFFICIAL_ECHOSTR);
        assertEquals("1616140317555161061",
                whenTheVectorWasSigned.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + encoded)));
        assertEquals("1616140317555161061",
                whenTheVectorWasSigned.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + OFFICIAL_ECHOSTR)));
    }

    @Test
    void officialVectorIsAReplayTodayAndRefusedAsStale() {
        assertEquals(Rejection.STALE_TIMESTAMP, assertThrows(CallbackRejected.class, () -> verifier.verifyUrl(OFFICIAL,
                CallbackQuery.parse(OFFICIAL_SIGNED + SignedCallbacks.encode(OFFICIAL_ECHOSTR)))).rejection());
    }

    @Test
    void officialVectorWithAPlusTurnedIntoASpaceIsRefused() {
        String spaced = OFFICIAL_ECHOSTR.replace('+', ' ').replace(" ", "%20");
        assertEquals(Rejection.BAD_SIGNATURE, assertThrows(CallbackRejected.class,
                () -> whenTheVectorWasSigned.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + spaced))).rejection());
    }

    @Test
    void urlVerificationNeedsAnEchostr() {
        assertEquals(Rejection.BAD_QUERY, assertThrows(CallbackRejected.class, () -> verifier.verifyUrl(OFFICIAL,
                CallbackQuery.parse("msg_signature=a&timestamp=1&nonce=2"))).rejection());
    }

    @Test
    void aSignedPostOpensToTheEventAndItsKey() throws Exception {
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        OpenedCallback opened = verifier.open(APP, CallbackQuery.parse(wire.query()), wire.body());
        assertEquals(EVENT, opened.plaintext());
        assertEquals("text", opened.event().typeName());
        assertEquals("customer:msg:4561255354251345929", opened.eventKey());
        assertEquals(SampleEvents.AGENT_ID, opened.agentId());
        assertEquals(wire.body(), opened.rawBody());
    }

    @Test
    void aForgedSignatureIs401() {
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        String forged = wire.query().replaceFirst("msg_signature=[0-9a-f]", "msg_signature=z");
        assertRejected(Rejection.BAD_SIGNATURE, forged, wire.body());
        String otherToken = new SignedCallbacks("anotherToken", KEY, SampleEvents.CORP_ID, "1").post(EVENT).query();
        assertRejected(Rejection.BAD_SIGNATURE, otherToken, wire.body());
    }

    @Test
    void aMissingSignatureIs401EvenBeforeTheBodyIsLookedAt() {
        assertRejected(Rejection.MISSING_SIGNATURE, "timestamp=1&nonce=2", "not xml at all");
    }

    @Test
    void aBodyThatIsNotXmlIs400() {
        assertRejected(Rejection.MALFORMED_XML, WECOM.post(EVENT).query(), "hello");
        assertRejected(Rejection.MALFORMED_XML, WECOM.post(EVENT).query(), "<xml><Encrypt>abc</xml>");
    }

    @Test
    void doctypeAndEntityTricksAre400() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<xml><Encrypt>&x;</Encrypt></xml>";
        assertRejected(Rejection.FORBIDDEN_XML, WECOM.post(EVENT).query(), xxe);
        assertRejected(Rejection.FORBIDDEN_XML, WECOM.post(EVENT).query(), "<xml><Encrypt>&x;</Encrypt></xml>");
    }

    @Test
    void aMissingOrEmptyEncryptIs400() {
        assertRejected(Rejection.MISSING_ENCRYPT, WECOM.post(EVENT).query(), "<xml><ToUserName>a</ToUserName></xml>");
        assertRejected(Rejection.MISSING_ENCRYPT, WECOM.post(EVENT).query(), "<xml><Encrypt> </Encrypt></xml>");
    }

    @Test
    void badBase64BadPaddingAndAnotherCorpAre400() {
        SignedCallbacks.Wire base64 = WECOM.postEncrypt("not*base64");
        assertRejected(Rejection.BAD_BASE64, base64.query(), base64.body());
        SignedCallbacks.Wire padding = WECOM.postEncrypt(WECOM.encryptWithBadPadding());
        assertRejected(Rejection.BAD_PADDING, padding.query(), padding.body());
        SignedCallbacks.Wire shortBlock = WECOM.postEncrypt("AAAA");
        assertRejected(Rejection.BAD_CIPHERTEXT, shortBlock.query(), shortBlock.body());
        SignedCallbacks.Wire otherCorp = WECOM.postEncrypt(WECOM.encryptForOtherCorp(EVENT));
        assertRejected(Rejection.WRONG_RECEIVER, otherCorp.query(), otherCorp.body());
    }

    @Test
    void aSignedButUnparseablePlaintextIs400() {
        SignedCallbacks.Wire wire = WECOM.post("<xml><MsgType>text");
        assertRejected(Rejection.MALFORMED_EVENT, wire.query(), wire.body());
    }

    @Test
    void bodyBytesThatAreNotUtf8Are400NotReplacedAndPassedOn() {
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        byte[] body = wire.body().getBytes(StandardCharsets.UTF_8);
        for (byte[] bad : List.of(new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xED,
                (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xC0, (byte) 0xAF})) {
            byte[] tampered = ByteBuffer.allocate(body.length + bad.length).put(body, 0, 5).put(bad)
                    .put(body, 5, body.length - 5).array(); // after "<xml>"
            assertEquals(Rejection.BAD_ENCODING, assertThrows(CallbackRejected.class,
                    () -> verifier.open(APP, CallbackQuery.parse(wire.query()), tampered)).rejection());
        }
    }

    @Test
    void utf8BodyBytesOpenAsBefore() throws Exception {
        SignedCallbacks.Wire wire = WECOM.post(SampleEvents.textMessage("4561255354251345930", "你好 😀"));
        OpenedCallback opened = verifier.open(APP, CallbackQuery.parse(wire.query()),
                wire.body().getBytes(StandardCharsets.UTF_8));
        assertEquals("你好 😀", opened.event().field("Content"));
    }

    @Test
    void aSignedMessageThatIsNotUtf8Is400() {
        // ISO-8859-1 makes 'ÿ' the single byte 0xFF, which never occurs in UTF-8
        byte[] message = "<xml><MsgType>text</MsgType><Content>\u00ff</Content></xml>"
                .getBytes(StandardCharsets.ISO_8859_1);
        SignedCallbacks.Wire wire = WECOM.postEncrypt(WECOM.encryptBytes(message));
        assertRejected(Rejection.BAD_ENCODING, wire.query(), wire.body());
    }

    @Test
    void hostileEnvelopesGetTheirOwn400() {
        String query = WECOM.post(EVENT).query();
        assertRejected(Rejection.XML_TOO_DEEP, query, "<xml>" + "<a>".repeat(20_000) + "</xml>");
        assertRejected(Rejection.XML_TOO_MANY_ELEMENTS, query, "<xml>" + "<a/>".repeat(12_000) + "</xml>");
        assertRejected(Rejection.XML_TOO_MANY_ATTRIBUTES, query, "<xml" + attributes(40) + "/>");
        assertRejected(Rejection.XML_TEXT_TOO_LONG, query, "<xml><Encrypt>" + "A".repeat(200_000) + "</Encrypt></xml>");
    }

    @Test
    void aSignedButDeeplyNestedMessageIs400WithItsReason() {
        SignedCallbacks.Wire wire = WECOM.post("<xml>" + "<a>".repeat(10_000) + "</a>".repeat(10_000) + "</xml>");
        assertRejected(Rejection.XML_TOO_DEEP, wire.query(), wire.body());
    }

    private static String attributes(int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            out.append(" a").append(i).append("=\"1\"");
        }
        return out.toString();
    }

    @Test
    void aSignedPostReplayedADayLaterIsRefusedAndWeComsLateRetryIsNot() throws Exception {
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        Clock retryTime = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(90));
        new CallbackVerifier(new TimestampWindow(retryTime, DEFAULT_WINDOW))
                .open(APP, CallbackQuery.parse(wire.query()), wire.body());
        Clock nextDay = Clock.offset(Clock.systemUTC(), Duration.ofDays(1));
        CallbackVerifier aDayLater = new CallbackVerifier(new TimestampWindow(nextDay, DEFAULT_WINDOW));
        assertEquals(Rejection.STALE_TIMESTAMP, assertThrows(CallbackRejected.class,
                () -> aDayLater.open(APP, CallbackQuery.parse(wire.query()), wire.body())).rejection());
    }

    @Test
    void aRequestSignedADayAgoIsRefusedNow() {
        SignedCallbacks.Wire captured = WECOM.postStampedAt(EVENT, System.currentTimeMillis() / 1000 - 86_400);
        assertRejected(Rejection.STALE_TIMESTAMP, captured.query(), captured.body());
    }

    @Test
    void onlyAuthenticRequestsCountAsStale() {
        // an old timestamp with a forged signature is a bad signature: the window is checked after it
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        String forged = wire.query().replaceFirst("msg_signature=[0-9a-f]", "msg_signature=z");
        CallbackVerifier aDayLater = new CallbackVerifier(
                new TimestampWindow(Clock.offset(Clock.systemUTC(), Duration.ofDays(1)), DEFAULT_WINDOW));
        assertEquals(Rejection.BAD_SIGNATURE, assertThrows(CallbackRejected.class,
                () -> aDayLater.open(APP, CallbackQuery.parse(forged), wire.body())).rejection());
    }

    @ParameterizedTest
    @EnumSource(CallbackCryptoException.Reason.class)
    void everyCryptoFailureMapsToAClientError(CallbackCryptoException.Reason reason) {
        int status = CallbackVerifier.rejectionFor(reason).status();
        assertEquals(4, status / 100, reason + " -> " + status);
    }

    private void assertRejected(Rejection expected, String query, String body) {
        CallbackRejected e = assertThrows(CallbackRejected.class,
                () -> verifier.open(APP, CallbackQuery.parse(query), body));
        assertEquals(expected, e.rejection(), e.getMessage());
    }
}
