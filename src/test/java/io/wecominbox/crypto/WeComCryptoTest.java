package io.wecominbox.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.crypto.CallbackCryptoException.Reason;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;

import org.junit.jupiter.api.Test;

class WeComCryptoTest {

    private static final String TOKEN = "QDG6eK";
    private static final String KEY = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C";
    private static final String CORP = "wx5823bf96d3bd56c7";
    private static final byte[] PREFIX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final WeComCrypto crypto = new WeComCrypto(TOKEN, KEY, CORP);

    // ---- round trips ----

    @Test
    void roundTripsRandomMessagesOfEveryLengthCoveringPadValues1To32() throws Exception {
        Random random = new Random(42); // fixed seed: a failure is reproducible
        TreeSet<Integer> padsSeen = new TreeSet<>();
        for (int length = 0; length <= 200; length++) {
            String message = randomAscii(random, length);
            String encrypted = crypto.encrypt(message);
            assertEquals(message, crypto.decrypt(encrypted), "length " + length);
            padsSeen.add(padValueOf(encrypted));
        }
        assertEquals(32, padsSeen.size(), "pad values seen: " + padsSeen);
        assertEquals(1, padsSeen.first());
        assertEquals(32, padsSeen.last());
    }

    @Test
    void roundTripsAMessageWhosePaddingIsAFullBlockOf32() throws Exception {
        // 20 header bytes + 26 + 18-byte corp id = 64 is already aligned, so the pad is a whole block.
        String message = "x".repeat(26);
        int plainLength = 20 + message.length() + CORP.length();
        assertEquals(0, plainLength % 32, "test setup: plaintext must be block-aligned");
        String encrypted = crypto.encrypt(message, PREFIX);
        assertEquals(32, padValueOf(encrypted));
        assertEquals(message, crypto.decrypt(encrypted));
    }

    @Test
    void decryptsMessageWithPadOver16ThatJdkPkcs5PaddingRejects() throws Exception {
        String message = "hello"; // 20 + 5 + 18 = 43 bytes -> pad 21
        String encrypted = crypto.encrypt(message, PREFIX);
        assertTrue(padValueOf(encrypted) > 16);
        assertEquals(message, crypto.decrypt(encrypted));

        Cipher pkcs5 = TestCiphers.cipher(Cipher.DECRYPT_MODE, KEY, "AES/CBC/PKCS5Padding");
        assertThrows(BadPaddingException.class, () -> pkcs5.doFinal(Base64.getDecoder().decode(encrypted)),
                "why the hand-written 32-byte unpadding exists");
    }

    @Test
    void roundTripsChineseAndEmojiText() throws Exception {
        String message = "<xml><Content><![CDATA[你好，企业微信 👋 欢迎]]></Content></xml>";
        assertEquals(message, crypto.decrypt(crypto.encrypt(message)));
    }

    @Test
    void lengthFieldCountsUtf8BytesNotChars() throws Exception {
        String message = "你好"; // 2 chars, 6 bytes
        byte[] plain = TestCiphers.decryptRaw(KEY, crypto.encrypt(message, PREFIX), 20);
        assertEquals(6, ByteBuffer.wrap(plain, 16, 4).getInt());
    }

    @Test
    void roundTripsEmptyMessage() throws Exception {
        assertEquals("", crypto.decrypt(crypto.encrypt("")));
    }

    @Test
    void encryptWithTheSamePrefixIsByteIdentical() {
        assertEquals(crypto.encrypt("same event", PREFIX), crypto.encrypt("same event", PREFIX));
    }

    @Test
    void encryptWithoutPrefixUsesFreshRandomness() {
        assertNotEquals(crypto.encrypt("same event"), crypto.encrypt("same event"));
    }

    @Test
    void plaintextLayoutIsPrefixLengthMessageReceiveId() throws Exception {
        String encrypted = crypto.encrypt("abc", PREFIX);
        byte[] plain = TestCiphers.decryptRaw(KEY, encrypted, 20 + 3 + CORP.length());
        ByteBuffer buffer = ByteBuffer.wrap(plain);
        byte[] prefix = new byte[16];
        buffer.get(prefix);
        assertEquals(new String(PREFIX, StandardCharsets.US_ASCII), new String(prefix, StandardCharsets.US_ASCII));
        assertEquals(3, buffer.getInt());
        assertEquals("abc" + CORP, StandardCharsets.UTF_8.decode(buffer).toString());
    }

    @Test
    void rejectsRandomPrefixThatIsNot16Bytes() {
        assertThrows(IllegalArgumentException.class, () -> crypto.encrypt("m", new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> crypto.encrypt("m", new byte[17]));
        assertThrows(IllegalArgumentException.class, () -> crypto.encrypt("m", null));
    }

    @Test
    void isSafeToShareBetweenThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                tasks.add(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 300; i++) {
                        String message = randomAscii(random, random.nextInt(300));
                        if (!message.equals(crypto.decrypt(crypto.encrypt(message)))) {
                            return false;
                        }
                    }
                    return true;
                });
            }
            for (Future<Boolean> result : pool.invokeAll(tasks)) {
                assertTrue(result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- receiveId ----

    @Test
    void rejectsMessageEncryptedForAnotherReceiveId() {
        String forOtherCorp = new WeComCrypto(TOKEN, KEY, "ww0000000000000000").encrypt("hi");
        assertReason(Reason.WRONG_RECEIVER, () -> crypto.decrypt(forOtherCorp));
    }

    @Test
    void rejectsMessageWhoseReceiveIdIsOnlyAPrefixOfOurs() {
        String forShorterId = new WeComCrypto(TOKEN, KEY, CORP.substring(0, 10)).encrypt("hi");
        assertReason(Reason.WRONG_RECEIVER, () -> crypto.decrypt(forShorterId));
    }

    // ---- tampering and malformed input ----

    @Test
    void rejectsTamperedLastPlaintextByteAsBadPadding() throws Exception {
        // CBC: flipping a bit in block n-1 flips the same bit in plaintext block n, here the pad value.
        byte[] ciphertext = Base64.getDecoder().decode(crypto.encrypt("hello", PREFIX));
        ciphertext[ciphertext.length - 17] ^= 0x40;
        assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(base64(ciphertext)));
    }

    @Test
    void rejectsInconsistentPadBytesAsBadPadding() throws Exception {
        byte[] ciphertext = Base64.getDecoder().decode(crypto.encrypt("hello", PREFIX)); // pad 21
        ciphertext[ciphertext.length - 18] ^= 0x01; // second-to-last pad byte becomes 20
        assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(base64(ciphertext)));
    }

    @Test
    void rejectsTamperedLastBlockAsBadPadding() {
        byte[] ciphertext = Base64.getDecoder().decode(crypto.encrypt("hello", PREFIX));
        ciphertext[ciphertext.length - 1] ^= 0x01; // scrambles the whole last block
        assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(base64(ciphertext)));
    }

    @Test
    void rejectsPadValueZero() throws Exception {
        byte[] plain = plaintext(3, "abc" + CORP, 7); // 48 bytes ending in a zero byte
        assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsPadLargerThan32() throws Exception {
        byte[] plain = new byte[64];
        Arrays.fill(plain, (byte) 33);
        assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsAMessageThatIsNotUtf8InsteadOfReplacingItsBytes() throws Exception {
        byte[] message = {'<', 'x', '>', (byte) 0xFF, '<', '/', 'x', '>'};
        byte[] corp = CORP.getBytes(StandardCharsets.UTF_8);
        byte[] plain = Pkcs7Padding32.pad(ByteBuffer.allocate(20 + message.length + corp.length)
                .put(PREFIX).putInt(message.length).put(message).put(corp).array());
        assertReason(Reason.BAD_MESSAGE_ENCODING, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsNegativeLengthField() throws Exception {
        byte[] plain = Pkcs7Padding32.pad(plaintext(-1, "abc" + CORP, 0));
        assertReason(Reason.BAD_LENGTH_FIELD, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsLengthFieldLongerThanTheRest() throws Exception {
        byte[] plain = Pkcs7Padding32.pad(plaintext(3 + CORP.length() + 1, "abc" + CORP, 0));
        assertReason(Reason.BAD_LENGTH_FIELD, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsHugeLengthFieldWithoutOverflowing() throws Exception {
        byte[] plain = Pkcs7Padding32.pad(plaintext(Integer.MAX_VALUE, "abc" + CORP, 0));
        assertReason(Reason.BAD_LENGTH_FIELD, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsPlaintextTooShortForTheLengthField() throws Exception {
        byte[] plain = Pkcs7Padding32.pad(new byte[10]);
        assertReason(Reason.BAD_LENGTH_FIELD, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY, plain)));
    }

    @Test
    void rejectsEmptyCiphertext() {
        assertReason(Reason.BAD_CIPHERTEXT_LENGTH, () -> crypto.decrypt(""));
    }

    @Test
    void rejectsCiphertextNotAMultipleOf16() {
        byte[] ciphertext = Base64.getDecoder().decode(crypto.encrypt("hello"));
        assertReason(Reason.BAD_CIPHERTEXT_LENGTH,
                () -> crypto.decrypt(base64(Arrays.copyOf(ciphertext, ciphertext.length - 1))));
        assertReason(Reason.BAD_CIPHERTEXT_LENGTH, () -> crypto.decrypt(base64(new byte[17])));
    }

    @Test
    void rejectsBadBase64() {
        assertReason(Reason.BAD_BASE64, () -> crypto.decrypt("not*base64!"));
        assertReason(Reason.BAD_BASE64, () -> crypto.decrypt("QUJD=QUJD"));
        assertReason(Reason.BAD_BASE64, () -> crypto.decrypt("QUJD-_"));  // URL-safe alphabet is not WeCom's
        assertReason(Reason.BAD_BASE64, () -> crypto.decrypt(null));
    }

    @Test
    void rejectsCiphertextWithAnInnerSpace() {
        String encrypted = crypto.encrypt("hello");
        String withSpace = encrypted.substring(0, 10) + " " + encrypted.substring(10);
        CallbackCryptoException e = assertReason(Reason.BAD_BASE64, () -> crypto.decrypt(withSpace));
        assertTrue(e.getMessage().contains("'+'"), "hints at the usual cause");
    }

    @Test
    void toleratesSurroundingWhitespaceAndMissingBase64Padding() throws Exception {
        String encrypted = crypto.encrypt("hello"); // 64 bytes -> 88 chars ending "=="
        assertTrue(encrypted.endsWith("=="));
        assertEquals("hello", crypto.decrypt("\n  " + encrypted + " \r\n"));
        assertEquals("hello", crypto.decrypt(encrypted.substring(0, encrypted.length() - 2)));
    }

    // ---- signature ----

    @Test
    void signatureIsSha1HexOfTheSortedConcatenation() throws Exception {
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                .digest(("1409659589" + "263014780" + "P9nA" + "QDG6eK").getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected, crypto.signature("1409659589", "263014780", "P9nA"));
        assertTrue(expected.matches("[0-9a-f]{40}"));
    }

    @Test
    void signatureDoesNotDependOnTheOrderOfItsInputs() {
        assertEquals(crypto.signature("1409659589", "263014780", "P9nA"),
                crypto.signature("263014780", "1409659589", "P9nA"));
        assertEquals(crypto.signature("1409659589", "263014780", "P9nA"),
                crypto.signature("P9nA", "263014780", "1409659589"));
    }

    @Test
    void signatureDependsOnTheToken() {
        WeComCrypto otherToken = new WeComCrypto("other", KEY, CORP);
        assertNotEquals(crypto.signature("1", "2", "3"), otherToken.signature("1", "2", "3"));
    }

    @Test
    void verifyAcceptsTheRightSignature() {
        String encrypted = crypto.encrypt("hello");
        assertTrue(crypto.verify(crypto.signature("1700000000", "42", encrypted), "1700000000", "42", encrypted));
    }

    @Test
    void verifyReturnsFalseForWrongNullOrBlankSignature() {
        String encrypted = crypto.encrypt("hello");
        String good = crypto.signature("1700000000", "42", encrypted);
        String wrong = (good.charAt(0) == '0' ? "1" : "0") + good.substring(1);
        assertFalse(crypto.verify(wrong, "1700000000", "42", encrypted));
        assertFalse(crypto.verify(good.substring(0, 39), "1700000000", "42", encrypted));
        assertFalse(crypto.verify(good + "0", "1700000000", "42", encrypted));
        assertFalse(crypto.verify(good.toUpperCase(), "1700000000", "42", encrypted));
        assertFalse(crypto.verify(null, "1700000000", "42", encrypted));
        assertFalse(crypto.verify("", "1700000000", "42", encrypted));
        assertFalse(crypto.verify("   ", "1700000000", "42", encrypted));
    }

    @Test
    void verifyReturnsFalseWhenAQueryValueIsMissing() {
        String good = crypto.signature("1700000000", "42", "abc");
        assertFalse(crypto.verify(good, null, "42", "abc"));
        assertFalse(crypto.verify(good, "1700000000", null, "abc"));
        assertFalse(crypto.verify(good, "1700000000", "42", null));
    }

    @Test
    void verifyAndDecryptChecksTheSignatureBeforeDecrypting() {
        // Garbage payload with a wrong signature must fail on the signature, not on Base64.
        assertReason(Reason.BAD_SIGNATURE, () -> crypto.verifyAndDecrypt("00", "1", "2", "***"));
        assertReason(Reason.BAD_SIGNATURE, () -> crypto.verifyUrl(null, "1", "2", "***"));
    }

    @Test
    void verifyAndDecryptReturnsThePlaintextOfASignedMessage() throws Exception {
        String encrypted = crypto.encrypt("<xml/>");
        assertEquals("<xml/>", crypto.verifyAndDecrypt(
                crypto.signature("1700000000", "42", encrypted), "1700000000", "42", encrypted));
    }

    // ---- configuration and secrecy ----

    @Test
    void rejectsMalformedKeyWithoutEchoingIt() {
        String badKey = KEY.substring(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WeComCrypto(TOKEN, badKey, CORP));
        assertFalse(e.getMessage().contains(badKey));
    }

    @Test
    void rejectsMissingTokenOrReceiveId() {
        assertThrows(IllegalArgumentException.class, () -> new WeComCrypto(null, KEY, CORP));
        assertThrows(IllegalArgumentException.class, () -> new WeComCrypto("", KEY, CORP));
        assertThrows(IllegalArgumentException.class, () -> new WeComCrypto(TOKEN, KEY, null));
        assertThrows(IllegalArgumentException.class, () -> new WeComCrypto(TOKEN, KEY, " "));
        assertThrows(IllegalArgumentException.class, () -> new WeComCrypto(TOKEN, null, CORP));
    }

    @Test
    void failureMessagesNeverContainKeyTokenOrPlaintext() throws Exception {
        String secretMessage = "TOP-SECRET-PLAINTEXT";
        String forOtherCorp = new WeComCrypto(TOKEN, KEY, "ww0000000000000000").encrypt(secretMessage);
        byte[] tampered = Base64.getDecoder().decode(crypto.encrypt(secretMessage, PREFIX));
        tampered[tampered.length - 1] ^= 1;
        List<CallbackCryptoException> failures = List.of(
                assertReason(Reason.WRONG_RECEIVER, () -> crypto.decrypt(forOtherCorp)),
                assertReason(Reason.BAD_PADDING, () -> crypto.decrypt(base64(tampered))),
                assertReason(Reason.BAD_BASE64, () -> crypto.decrypt(secretMessage + "!")),
                assertReason(Reason.BAD_SIGNATURE, () -> crypto.verifyUrl("x", "1", "2", forOtherCorp)),
                assertReason(Reason.BAD_LENGTH_FIELD, () -> crypto.decrypt(TestCiphers.encryptRaw(KEY,
                        Pkcs7Padding32.pad(plaintext(-5, secretMessage + CORP, 0))))));
        for (CallbackCryptoException e : failures) {
            String text = e.getMessage();
            assertFalse(text.contains(KEY), text);
            assertFalse(text.contains(TOKEN), text);
            assertFalse(text.contains(secretMessage), text);
            assertFalse(text.contains("ww0000000000000000"), text);
        }
    }

    @Test
    void toStringShowsNeitherTokenNorKey() {
        String text = crypto.toString();
        assertFalse(text.contains(TOKEN));
        assertFalse(text.contains(KEY));
    }

    // ---- helpers ----

    /** Pad value of a ciphertext this class produced, read back without validation. */
    private static int padValueOf(String encrypted) throws Exception {
        int length = Base64.getDecoder().decode(encrypted).length;
        return TestCiphers.decryptRaw(KEY, encrypted, length)[length - 1];
    }

    /** 16-byte prefix, the given length field, then {@code rest} as UTF-8, then {@code extra} zero bytes. */
    private static byte[] plaintext(int lengthField, String rest, int extra) {
        byte[] body = rest.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(20 + body.length + extra).put(PREFIX).putInt(lengthField).put(body).array();
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String randomAscii(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) (' ' + random.nextInt(95)));
        }
        return text.toString();
    }

    @FunctionalInterface
    private interface CryptoCall {
        Object run() throws Exception;
    }

    private static CallbackCryptoException assertReason(Reason expected, CryptoCall call) {
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class, call::run);
        assertEquals(expected, e.reason(), e.getMessage());
        return e;
    }
}
