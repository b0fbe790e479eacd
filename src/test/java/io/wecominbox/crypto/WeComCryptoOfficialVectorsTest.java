package io.wecominbox.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.crypto.CallbackCryptoException.Reason;

import org.junit.jupiter.api.Test;

/**
 * Vectors from Tencent's official callback samples (WXBizMsgCrypt "Sample" files in the weworkapi
 * repositories, e.g. sbzhu/weworkapi_python callback/Sample.py and callback_json/Sample.py).
 * Only the values are taken; the expected plaintexts are the messages those samples describe.
 */
class WeComCryptoOfficialVectorsTest {

    // Sample set A (2014): the configuration every language's sample starts with.
    private static final String TOKEN_A = "QDG6eK";
    private static final String KEY_A = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C";
    private static final String CORP_A = "wx5823bf96d3bd56c7";

    private static final String ECHOSTR_A =
            "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==";

    private static final String POST_ENCRYPT_A = "RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5"
            + "L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4a"
            + "SknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s"
            + "4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k"
            + "22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIG"
            + "HBZZIs2pDBS8R07+qN+E7Q==";

    private static final String POST_PLAINTEXT_A = "<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName>\n"
            + "<FromUserName><![CDATA[mycreate]]></FromUserName>\n"
            + "<CreateTime>1409659813</CreateTime>\n"
            + "<MsgType><![CDATA[text]]></MsgType>\n"
            + "<Content><![CDATA[hello]]></Content>\n"
            + "<MsgId>4561255354251345929</MsgId>\n"
            + "<AgentID>218</AgentID>\n"
            + "</xml>";

    // Sample set B (2016): the newer samples' own configuration, with a Chinese message.
    private static final String TOKEN_B = "hJqcu3uJ9Tn2gXPmxx2w9kkCkCE2EPYo";
    private static final String KEY_B = "6qkdMrq68nTKduznJYO1A37W2oEgpkMUvkttRToqhUt";
    private static final String CORP_B = "ww1436e0e65a779aee";

    private static final String ECHOSTR_B =
            "fsi1xnbH4yQh0+PJxcOdhhK6TDXkjMyhEPA7xB2TGz6b+g7xyAbEkRxN/3cNXW9qdqjnoVzEtpbhnFyq6SVHyA==";

    private static final String POST_ENCRYPT_B = "Kl7kjoSf6DMD1zh7rtrHjFaDapSCkaOnwu3bqLc5tAybhhMl9pFeK8NslNPVdMwm"
            + "BQTNoW4mY7AIjeLvEl3NyeTkAgGzBhzTtRLNshw2AEew+kkYcD+Fq72Kt00fT0WnN87hGrW8SqGc+NcT3mu87Ha3dz1pSDi6"
            + "GaUA6A0sqfde0VJPQbZ9U+3JWcoD4Z5jaU0y9GSh010wsHF8KZD24YhmZH4ch4Ka7ilEbjbfvhKkNL65HHL0J6EYJIZUC2pF"
            + "rdkJ7MhmEbU2qARR4iQHE7wy24qy0cRX3Mfp6iELcDNfSsPGjUQVDGxQDCWjayJOpcwocugux082f49HKYg84EpHSGXAyh+/"
            + "oxwaWbvL6aSDPOYuPDGOCI8jmnKiypE+";

    private static final String POST_PLAINTEXT_B = "<xml><ToUserName>ww1436e0e65a779aee</ToUserName>"
            + "<FromUserName>ChenJiaShun</FromUserName><CreateTime>1476422779</CreateTime>"
            + "<MsgType>text</MsgType><Content>你好</Content><MsgId>1456453720</MsgId>"
            + "<AgentID>1000002</AgentID></xml>";

    // JSON-callback sample: signed with set B's token, encrypted for set B's corp.
    private static final String JSON_ENCRYPT_B = "cjhLUX7UU4yCSelv1vz7T0zT8huF51bAMVWriNvO1FMegHrQZNrtvRxbwf0fUPsF"
            + "vwqR0U0fgiJNEA5Y30F2MoI2S7vv3EjVQ68C0cjw9frBoUE2Hj0BvFp9h3u6Vbsg4lc1C8AtHdaN8orKuNKkLRLuYEL52R1J"
            + "3v8olJGZRLnRdVKIivixmX/eQpzgeExtp20jI1HxRP1AAZ6xZoILdqDPO549LO4WeG+685JRUTdiwcY5fjZlqeMxuT4PpMn1"
            + "X9OWsS7NRj06Wa5E3Tvg4twjWp39KPfOdRte6P1T4JU=";

    private final WeComCrypto cryptoA = new WeComCrypto(TOKEN_A, KEY_A, CORP_A);
    private final WeComCrypto cryptoB = new WeComCrypto(TOKEN_B, KEY_B, CORP_B);

    @Test
    void verifiesOfficialEchostrSignature() {
        assertEquals("5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3",
                cryptoA.signature("1409659589", "263014780", ECHOSTR_A));
        assertTrue(cryptoA.verify("5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3", "1409659589", "263014780", ECHOSTR_A));
    }

    @Test
    void decryptsOfficialEchostrVector() throws Exception {
        assertEquals("1616140317555161061", cryptoA.verifyUrl(
                "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3", "1409659589", "263014780", ECHOSTR_A));
    }

    @Test
    void verifiesAndDecryptsOfficialPostVector() throws Exception {
        assertEquals("477715d11cdb4164915debcba66cb864d751f3e6",
                cryptoA.signature("1409659813", "1372623149", POST_ENCRYPT_A));
        assertEquals(POST_PLAINTEXT_A, cryptoA.verifyAndDecrypt(
                "477715d11cdb4164915debcba66cb864d751f3e6", "1409659813", "1372623149", POST_ENCRYPT_A));
    }

    @Test
    void decryptsSecondSampleEchostrVector() throws Exception {
        assertEquals("1288432023552776189", cryptoB.verifyUrl(
                "012bc692d0a58dd4b10f8dfe5c4ac00ae211ebeb", "1476416373", "47744683", ECHOSTR_B));
    }

    @Test
    void verifiesAndDecryptsSecondSamplePostVectorWithChineseContent() throws Exception {
        assertEquals(POST_PLAINTEXT_B, cryptoB.verifyAndDecrypt(
                "0c3914025cb4b4d68103f6bfc8db550f79dcf48e", "1476422779", "1597212914", POST_ENCRYPT_B));
    }

    @Test
    void verifiesAndDecryptsOfficialJsonCallbackVector() throws Exception {
        String json = cryptoB.verifyAndDecrypt(
                "e3647471e395139e2308c1fa963f2d648a00b90e", "1409659813", "1372623149", JSON_ENCRYPT_B);
        // The sample's JSON is itself malformed (":mycreate"); we only decrypt, so it comes back as sent.
        assertTrue(json.startsWith("{ \"ToUserName\": \"wx5823bf96d3bd56c7\""), json);
        assertTrue(json.contains("\"MsgId\": 4561255354251345929"), json);
    }

    @Test
    void reEncryptingTheOfficialPlaintextWithItsOwnPrefixGivesTheOfficialCiphertext() throws Exception {
        // The first 16 plaintext bytes are the sender's random prefix; recover it from the vector.
        byte[] prefix = TestCiphers.decryptRaw(KEY_A, POST_ENCRYPT_A, 16);
        assertEquals(POST_ENCRYPT_A, cryptoA.encrypt(POST_PLAINTEXT_A, prefix));
    }

    @Test
    void rejectsOfficialEchostrWithATamperedSignature() {
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class, () -> cryptoA.verifyUrl(
                "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd4", "1409659589", "263014780", ECHOSTR_A));
        assertEquals(Reason.BAD_SIGNATURE, e.reason());
    }

    @Test
    void rejectsOfficialEchostrWhenTimestampOrNonceDiffer() {
        assertFalse(cryptoA.verify("5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3", "1409659590", "263014780", ECHOSTR_A));
        assertFalse(cryptoA.verify("5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3", "1409659589", "263014781", ECHOSTR_A));
    }

    @Test
    void rejectsOfficialPostVectorForAnotherCorp() {
        WeComCrypto otherCorp = new WeComCrypto(TOKEN_A, KEY_A, CORP_B);
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class,
                () -> otherCorp.decrypt(POST_ENCRYPT_A));
        assertEquals(Reason.WRONG_RECEIVER, e.reason());
    }

    @Test
    void rejectsOfficialPostVectorUnderTheWrongKeyAsBadPadding() {
        WeComCrypto wrongKey = new WeComCrypto(TOKEN_A, KEY_B, CORP_A);
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class,
                () -> wrongKey.decrypt(POST_ENCRYPT_A));
        assertEquals(Reason.BAD_PADDING, e.reason());
    }

    @Test
    void rejectsOfficialEchostrWhosePlusSignsWereFormDecodedToSpaces() {
        String mangled = ECHOSTR_A.replace('+', ' ');
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class,
                () -> cryptoA.decrypt(mangled));
        assertEquals(Reason.BAD_BASE64, e.reason());
    }
}
