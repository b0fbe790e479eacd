package io.wecominbox.crypto;

import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Raw AES-CBC with a WeCom key, written straight against the JDK so tests can build (and inspect)
 * plaintexts the production encoder would never produce.
 */
final class TestCiphers {

    private TestCiphers() {
    }

    /** Encrypts {@code plaintext} as is (no padding added); its length must be a multiple of 16. */
    static String encryptRaw(String encodingAesKey, byte[] plaintext) throws Exception {
        return Base64.getEncoder().encodeToString(cipher(Cipher.ENCRYPT_MODE, encodingAesKey).doFinal(plaintext));
    }

    /** Decrypts without touching the padding and returns the first {@code length} bytes. */
    static byte[] decryptRaw(String encodingAesKey, String base64, int length) throws Exception {
        byte[] plain = cipher(Cipher.DECRYPT_MODE, encodingAesKey).doFinal(Base64.getDecoder().decode(base64));
        return Arrays.copyOf(plain, length);
    }

    static Cipher cipher(int mode, String encodingAesKey) throws Exception {
        return cipher(mode, encodingAesKey, "AES/CBC/NoPadding");
    }

    static Cipher cipher(int mode, String encodingAesKey, String transformation) throws Exception {
        byte[] key = Base64.getDecoder().decode(encodingAesKey + "=");
        Cipher cipher = Cipher.getInstance(transformation);
        cipher.init(mode, new SecretKeySpec(key, "AES"), new IvParameterSpec(key, 0, 16));
        return cipher;
    }
}
