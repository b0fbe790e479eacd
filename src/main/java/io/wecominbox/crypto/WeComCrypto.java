package io.wecominbox.crypto;

import io.wecominbox.crypto.CallbackCryptoException.Reason;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signature and AES for the WeCom callback protocol (the "WXBizMsgCrypt" scheme).
 *
 * <ul>
 *   <li>msg_signature = lowercase hex SHA-1 of token, timestamp, nonce and payload, sorted and joined.</li>
 *   <li>AES-256-CBC, key = Base64(EncodingAESKey + "="), IV = first 16 key bytes, PKCS#7 to 32 bytes.</li>
 *   <li>Plaintext = 16 random bytes | 4-byte big-endian length | UTF-8 message | receiveId.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe: a {@link Cipher} is created per call, everything else is final.
 * Callers must check the signature before decrypting ({@link #verifyUrl}, {@link #verifyAndDecrypt}):
 * CBC has no integrity of its own.
 */
public final class WeComCrypto {

    private static final int RANDOM_PREFIX_BYTES = 16;
    private static final int LENGTH_FIELD_BYTES = 4;
    private static final int HEADER_BYTES = RANDOM_PREFIX_BYTES + LENGTH_FIELD_BYTES;
    private static final int AES_BLOCK_BYTES = 16;
    private static final String TRANSFORMATION = "AES/CBC/NoPadding";

    // SecureRandom is thread-safe; one per instance avoids contention between apps.
    private final SecureRandom random = new SecureRandom();
    private final String token;
    private final SecretKeySpec aesKey;
    private final IvParameterSpec iv;
    private final byte[] receiveId;

    /**
     * @param token          the callback Token configured in WeCom
     * @param encodingAesKey the 43-character EncodingAESKey
     * @param receiveId      the CorpID for self-built apps (the suite id or corp id for third-party apps)
     * @throws IllegalArgumentException if a value is missing or the key is malformed; the message
     *                                  never contains the key or the token
     */
    public WeComCrypto(String token, String encodingAesKey, String receiveId) {
        if (token == null || token.isEmpty()) {
            throw new IllegalArgumentException("token is missing");
        }
        if (receiveId == null || receiveId.isBlank()) {
            // A blank receiveId would fail every message; say so at startup rather than per request.
            throw new IllegalArgumentException("receiveId (CorpID) is missing");
        }
        byte[] key = EncodingAesKeys.decode(encodingAesKey);
        this.token = token;
        this.aesKey = new SecretKeySpec(key, "AES");
        this.iv = new IvParameterSpec(key, 0, AES_BLOCK_BYTES);
        this.receiveId = receiveId.getBytes(StandardCharsets.UTF_8);
        Arrays.fill(key, (byte) 0); // SecretKeySpec and IvParameterSpec keep their own copies
    }

    /** Lowercase hex SHA-1 of token, timestamp, nonce and encrypt, sorted lexicographically and joined. */
    public String signature(String timestamp, String nonce, String encrypt) {
        String[] parts = {
            token,
            Objects.requireNonNull(timestamp, "timestamp"),
            Objects.requireNonNull(nonce, "nonce"),
            Objects.requireNonNull(encrypt, "encrypt"),
        };
        // All values are ASCII in practice, so String order equals the byte order the samples use.
        Arrays.sort(parts);
        return HexFormat.of().formatHex(sha1().digest(String.join("", parts).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * True when {@code msgSignature} is the signature of the other three values. Compared in
     * constant time; a missing value (null or blank signature, null others) is simply false, as it
     * comes straight from an untrusted request.
     */
    public boolean verify(String msgSignature, String timestamp, String nonce, String encrypt) {
        if (msgSignature == null || msgSignature.isBlank()
                || timestamp == null || nonce == null || encrypt == null) {
            return false;
        }
        byte[] expected = signature(timestamp, nonce, encrypt).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, msgSignature.getBytes(StandardCharsets.UTF_8));
    }

    /** Encrypts {@code message} with a fresh random prefix; returns standard Base64. */
    public String encrypt(String message) {
        byte[] prefix = new byte[RANDOM_PREFIX_BYTES];
        random.nextBytes(prefix);
        return encrypt(message, prefix);
    }

    /**
     * Encrypts {@code message} with the given 16-byte prefix: same inputs give the same output, which
     * test vectors and byte-identical re-sends (the simulator's retries) need.
     */
    public String encrypt(String message, byte[] random16) {
        Objects.requireNonNull(message, "message");
        if (random16 == null || random16.length != RANDOM_PREFIX_BYTES) {
            throw new IllegalArgumentException("random prefix must be exactly " + RANDOM_PREFIX_BYTES + " bytes");
        }
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        ByteBuffer plain = ByteBuffer.allocate(HEADER_BYTES + body.length + receiveId.length);
        plain.put(random16).putInt(body.length).put(body).put(receiveId); // putInt is big-endian
        byte[] padded = Pkcs7Padding32.pad(plain.array());
        return Base64.getEncoder().encodeToString(aes(Cipher.ENCRYPT_MODE, padded));
    }

    /**
     * Reverses {@link #encrypt}: checks the padding, the length field and the receiveId.
     * Does not check the signature: use {@link #verifyAndDecrypt} or {@link #verifyUrl} for callbacks.
     */
    public String decrypt(String encryptBase64) throws CallbackCryptoException {
        byte[] ciphertext = decodeBase64(encryptBase64);
        if (ciphertext.length == 0 || ciphertext.length % AES_BLOCK_BYTES != 0) {
            throw new CallbackCryptoException(Reason.BAD_CIPHERTEXT_LENGTH,
                    "ciphertext length " + ciphertext.length + " is not a positive multiple of 16");
        }
        byte[] plain = aes(Cipher.DECRYPT_MODE, ciphertext);
        int end = Pkcs7Padding32.unpaddedLength(plain);
        if (end < HEADER_BYTES) {
            throw new CallbackCryptoException(Reason.BAD_LENGTH_FIELD, "plaintext too short for the length field");
        }
        int messageLength = ByteBuffer.wrap(plain, RANDOM_PREFIX_BYTES, LENGTH_FIELD_BYTES).getInt();
        if (messageLength < 0 || messageLength > end - HEADER_BYTES) {
            throw new CallbackCryptoException(Reason.BAD_LENGTH_FIELD,
                    "message length field out of range");
        }
        int receiveIdStart = HEADER_BYTES + messageLength;
        byte[] actualReceiveId = Arrays.copyOfRange(plain, receiveIdStart, end);
        if (!MessageDigest.isEqual(actualReceiveId, receiveId)) {
            // The official samples reject this too: a message for another corp or app is not ours.
            throw new CallbackCryptoException(Reason.WRONG_RECEIVER,
                    "receiveId in the message does not match the configured one");
        }
        return utf8(plain, HEADER_BYTES, messageLength);
    }

    /** Strict: a lenient decoder would turn invalid bytes into U+FFFD, a text the sender never wrote. */
    private static String utf8(byte[] bytes, int offset, int length) throws CallbackCryptoException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (CharacterCodingException e) {
            throw new CallbackCryptoException(Reason.BAD_MESSAGE_ENCODING, "decrypted message is not valid UTF-8");
        }
    }

    /**
     * GET URL verification: checks the signature over echostr, then returns the decrypted echostr,
     * which is the exact body to answer with.
     */
    public String verifyUrl(String msgSignature, String timestamp, String nonce, String echostr)
            throws CallbackCryptoException {
        return verifyAndDecrypt(msgSignature, timestamp, nonce, echostr);
    }

    /**
     * POST event: checks the signature over the {@code <Encrypt>} value, then decrypts it.
     * The signature goes first so unauthenticated input never reaches the decryption.
     */
    public String verifyAndDecrypt(String msgSignature, String timestamp, String nonce, String encrypt)
            throws CallbackCryptoException {
        if (!verify(msgSignature, timestamp, nonce, encrypt)) {
            throw new CallbackCryptoException(Reason.BAD_SIGNATURE, "msg_signature does not match");
        }
        return decrypt(encrypt);
    }

    private static byte[] decodeBase64(String encoded) throws CallbackCryptoException {
        if (encoded == null) {
            throw new CallbackCryptoException(Reason.BAD_BASE64, "ciphertext is missing");
        }
        // Trim what an XML text node or a copy-paste can add; keep everything else as sent.
        String trimmed = encoded.strip();
        if (trimmed.indexOf(' ') >= 0) {
            // The usual cause is a query string decoded as a form, turning '+' into ' '.
            throw new CallbackCryptoException(Reason.BAD_BASE64,
                    "ciphertext contains a space (was a '+' URL-decoded to ' '?)");
        }
        try {
            // The plain (non-MIME) decoder: rejects stray characters instead of skipping them.
            return Base64.getDecoder().decode(trimmed);
        } catch (IllegalArgumentException e) {
            throw new CallbackCryptoException(Reason.BAD_BASE64, "ciphertext is not valid Base64");
        }
    }

    private byte[] aes(int mode, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION); // Cipher is not thread-safe: one per call
            cipher.init(mode, aesKey, iv);
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            // Only possible if the JDK lacks AES/CBC or the input is not block-aligned, both checked above.
            throw new IllegalStateException("AES/CBC/NoPadding failed", e);
        }
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }

    @Override
    public String toString() {
        // Never print the token or key, even by accident in a log line.
        return "WeComCrypto[receiveId=" + new String(receiveId, StandardCharsets.UTF_8) + "]";
    }
}
