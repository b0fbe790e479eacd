package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CallbackQueryTest {

    @Test
    void rawPlusStaysAPlusAndEncodedPlusBecomesOne() throws Exception {
        assertEquals("a+b/c==", CallbackQuery.parse("echostr=a+b/c==").echostr());
        assertEquals("a+b/c==", CallbackQuery.parse("echostr=a%2Bb%2Fc%3D%3D").echostr());
        assertEquals("a+b/c==", CallbackQuery.parse("echostr=a%2bb%2fc%3d%3d").echostr());
    }

    @Test
    void readsTheFourWeComParametersAndKeepsTheRawQuery() throws Exception {
        String raw = "msg_signature=abc&timestamp=1409659589&nonce=263014780&echostr=x%20y&other=1";
        CallbackQuery q = CallbackQuery.parse(raw);
        assertEquals(raw, q.raw());
        assertEquals("abc", q.msgSignature());
        assertEquals("1409659589", q.timestamp());
        assertEquals("263014780", q.nonce());
        assertEquals("x y", q.echostr(), "%20 is a real space");
    }

    @Test
    void firstOfARepeatedParameterWinsAndMissingOnesAreNull() throws Exception {
        CallbackQuery q = CallbackQuery.parse("nonce=1&nonce=2&&timestamp");
        assertEquals("1", q.nonce());
        assertEquals("", q.timestamp());
        assertNull(q.msgSignature());
        assertEquals("", CallbackQuery.parse(null).raw());
    }

    @Test
    void malformedPercentEncodingIsABadQuery() {
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CallbackQuery.parse("nonce=%zz"));
        assertEquals(Rejection.BAD_QUERY, e.rejection());
        assertEquals(Rejection.BAD_QUERY,
                assertThrows(CallbackRejected.class, () -> CallbackQuery.parse("nonce=%4")).rejection());
    }

    @Test
    void anOverlongQueryIsRefusedBeforeDecoding() {
        String raw = "nonce=" + "1".repeat(CallbackQuery.MAX_RAW_CHARS);
        assertEquals(Rejection.BAD_QUERY, assertThrows(CallbackRejected.class, () -> CallbackQuery.parse(raw)).rejection());
    }

    @Test
    void signatureParametersAreRequired() throws Exception {
        assertEquals(Rejection.MISSING_SIGNATURE, assertThrows(CallbackRejected.class,
                () -> CallbackQuery.parse("timestamp=1&nonce=2").requireSignatureParameters()).rejection());
        assertEquals(Rejection.MISSING_SIGNATURE, assertThrows(CallbackRejected.class,
                () -> CallbackQuery.parse("msg_signature=&timestamp=1&nonce=2").requireSignatureParameters()).rejection());
        assertEquals(Rejection.BAD_QUERY, assertThrows(CallbackRejected.class,
                () -> CallbackQuery.parse("msg_signature=a&nonce=2").requireSignatureParameters()).rejection());
        CallbackQuery.parse("msg_signature=a&timestamp=1&nonce=2").requireSignatureParameters();
    }
}
