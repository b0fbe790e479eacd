package io.wecominbox.crypto;

import java.security.SecureRandom;
import java.util.Base64;

/** Creates and decodes WeCom EncodingAESKeys (43 Base64 characters standing for a 32-byte AES key). */
public final class EncodingAesKeys {

    /** Length of an EncodingAESKey as WeCom shows it: 32 bytes in Base64 without the final '='. */
    public static final int LENGTH = 43;

    private static final int AES_KEY_BYTES = 32;

    // Letters and digits only, like the keys the WeCom admin console generates: such a key can be
    // pasted into the console, and it never meets URL or XML escaping.
    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private static final SecureRandom RANDOM = new SecureRandom();

    private EncodingAesKeys() {
    }

    /** A fresh random key (about 256 bits of entropy) for the simulator and dev setups. */
    public static String generate() {
        char[] key = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            key[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(key);
    }

    /** True when {@code encodingAesKey} is 43 Base64 characters that decode to 32 bytes. */
    public static boolean isValid(String encodingAesKey) {
        try {
            decode(encodingAesKey);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The 32-byte AES key behind {@code encodingAesKey}.
     *
     * @throws IllegalArgumentException if it is not a valid key; the message never repeats the key
     */
    static byte[] decode(String encodingAesKey) {
        if (encodingAesKey == null) {
            throw new IllegalArgumentException("EncodingAESKey is missing");
        }
        if (encodingAesKey.length() != LENGTH) {
            throw new IllegalArgumentException("EncodingAESKey must be " + LENGTH
                    + " characters, got " + encodingAesKey.length());
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(encodingAesKey + "=");
        } catch (IllegalArgumentException e) {
            // Not chained: the JDK's message names the offending character, i.e. part of the key.
            throw new IllegalArgumentException("EncodingAESKey is not Base64 (letters, digits, '+' and '/' only)");
        }
        if (key.length != AES_KEY_BYTES) {
            throw new IllegalArgumentException("EncodingAESKey must decode to " + AES_KEY_BYTES + " bytes");
        }
        return key;
    }
}
