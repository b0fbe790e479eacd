package io.wecominbox.crypto;

import java.util.Arrays;

/**
 * PKCS#7 padding with a 32-byte block, as WeCom uses it (pad values 1..32).
 *
 * <p>The JDK's PKCS5Padding only knows 16-byte blocks and rejects pads over 16, which is about half
 * of all real WeCom messages; hence this helper and {@code AES/CBC/NoPadding}.
 */
final class Pkcs7Padding32 {

    static final int BLOCK_SIZE = 32;

    private Pkcs7Padding32() {
    }

    /** Returns {@code data} followed by 1..32 bytes each holding the pad length. */
    static byte[] pad(byte[] data) {
        int padLength = BLOCK_SIZE - (data.length % BLOCK_SIZE); // a full block when already aligned
        byte[] padded = Arrays.copyOf(data, data.length + padLength);
        Arrays.fill(padded, data.length, padded.length, (byte) padLength);
        return padded;
    }

    /**
     * Returns the length of {@code padded} without its pad, after checking every pad byte.
     * Checking them all (not just the last) is what catches a wrong key or a tampered tail.
     */
    static int unpaddedLength(byte[] padded) throws CallbackCryptoException {
        if (padded.length == 0) {
            throw badPadding();
        }
        int padLength = padded[padded.length - 1] & 0xFF;
        if (padLength < 1 || padLength > BLOCK_SIZE || padLength > padded.length) {
            throw badPadding();
        }
        // Accumulate instead of returning early, so the time taken does not say which byte was wrong.
        int diff = 0;
        for (int i = padded.length - padLength; i < padded.length; i++) {
            diff |= (padded[i] & 0xFF) ^ padLength;
        }
        if (diff != 0) {
            throw badPadding();
        }
        return padded.length - padLength;
    }

    private static CallbackCryptoException badPadding() {
        return new CallbackCryptoException(CallbackCryptoException.Reason.BAD_PADDING,
                "invalid PKCS#7 padding (wrong EncodingAESKey or tampered ciphertext)");
    }
}
