package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wecominbox.crypto.CallbackCryptoException;
import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.event.SampleEvents;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
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

    private final CallbackVerifier verifier = new CallbackVerifier(TimestampWindow.off(Clock.systemUTC()));

    @Test
    void officialVectorPassesUrlVerificationWithEncodedOrRawPlus() throws Exception {
        String encoded = SignedCallbacks.encode(OFFICIAL_ECHOSTR);
        assertEquals("1616140317555161061", verifier.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + encoded)));
        assertEquals("1616140317555161061",
                verifier.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + OFFICIAL_ECHOSTR)));
    }

    @Test
    void officialVectorWithAPlusTurnedIntoASpaceIsRefused() {
        String spaced = OFFICIAL_ECHOSTR.replace('+', ' ').replace(" ", "%20");
        assertEquals(Rejection.BAD_SIGNATURE, assertThrows(CallbackRejected.class,
                () -> verifier.verifyUrl(OFFICIAL, CallbackQuery.parse(OFFICIAL_SIGNED + spaced))).rejection());
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
    void timestampWindowIsOffByDefaultAndRefusesOnlyOldSignedRequestsWhenOn() throws Exception {
        SignedCallbacks.Wire wire = WECOM.post(EVENT);
        Clock tenMinutesLater = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10));
        verifier.open(APP, CallbackQuery.parse(wire.query()), wire.body());
        new CallbackVerifier(new TimestampWindow(tenMinutesLater, Duration.ofMinutes(15)))
                .open(APP, CallbackQuery.parse(wire.query()), wire.body());
        CallbackVerifier strict = new CallbackVerifier(new TimestampWindow(tenMinutesLater, Duration.ofMinutes(5)));
        assertEquals(Rejection.STALE_TIMESTAMP, assertThrows(CallbackRejected.class,
                () -> strict.open(APP, CallbackQuery.parse(wire.query()), wire.body())).rejection());
        // The official vector is from 2014: accepted only while the window is off.
        Clock now = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
        CallbackVerifier windowed = new CallbackVerifier(new TimestampWindow(now, Duration.ofMinutes(5)));
        assertEquals(Rejection.STALE_TIMESTAMP, assertThrows(CallbackRejected.class, () -> windowed.verifyUrl(OFFICIAL,
                CallbackQuery.parse(OFFICIAL_SIGNED + SignedCallbacks.encode(OFFICIAL_ECHOSTR)))).rejection());
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
