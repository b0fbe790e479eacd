package io.wecominbox.crypto;

import java.util.Objects;

/**
 * A WeCom callback could not be authenticated or decrypted.
 *
 * <p>Checked on purpose: every caller sits on the request path and must decide what to answer.
 * The message is short and never contains the key, the token or any plaintext, so it is safe to log.
 */
public class CallbackCryptoException extends Exception {

    private static final long serialVersionUID = 1L;

    /** What was wrong with the callback; stable enough to count in metrics. */
    public enum Reason {
        /** msg_signature does not match SHA-1 over token, timestamp, nonce and payload. */
        BAD_SIGNATURE,
        /** The payload is not standard Base64. */
        BAD_BASE64,
        /** The ciphertext is empty or not a whole number of AES blocks. */
        BAD_CIPHERTEXT_LENGTH,
        /** The 32-byte PKCS#7 padding is missing or inconsistent (wrong key, or tampered). */
        BAD_PADDING,
        /** The 4-byte message length is negative or longer than what follows it. */
        BAD_LENGTH_FIELD,
        /** The trailing receiveId is not the one this app is configured for. */
        WRONG_RECEIVER,
        /** The decrypted message is not UTF-8 (the protocol says it is). */
        BAD_MESSAGE_ENCODING
    }

    private final Reason reason;

    public CallbackCryptoException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
