package io.wecominbox.ops.security;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The user name of an {@code Authorization: Basic} header, as a key for counting wrong passwords. Only a keyed
 * hash of the name is kept or logged: a password typed into the name field by mistake must not end up in a map
 * or a log line, and the hash key is random per JVM, so such a line cannot be reversed by guessing offline. The
 * password part of the header is never turned into a String.
 */
final class BasicUser {

    private static final byte[] HASH_KEY = new byte[32];

    static {
        new SecureRandom().nextBytes(HASH_KEY);
    }

    private BasicUser() {
    }

    /** "user:" plus 16 hex digits of the name's keyed hash; null when the header carries no Basic user name. */
    static String keyOf(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.length() < 6 || !value.substring(0, 6).toLowerCase(Locale.ROOT).equals("basic ")) {
            return null;
        }
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(value.substring(6).strip());
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        try {
            int colon = indexOfColon(decoded);
            if (colon <= 0) {
                return null;
            }
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(HASH_KEY, "HmacSHA256"));
            mac.update(decoded, 0, colon);
            return "user:" + HexFormat.of().formatHex(mac.doFinal(), 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        } finally {
            Arrays.fill(decoded, (byte) 0); // the password's bytes do not linger in this array
        }
    }

    private static int indexOfColon(byte[] decoded) {
        for (int i = 0; i < decoded.length; i++) {
            if (decoded[i] == ':') {
                return i;
            }
        }
        return -1;
    }
}
