package io.wecominbox.event;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Joins a recipe name and its components with ':' so that the result is unambiguous and bounded.
 * Inside a component '%', ':', '#', whitespace and control/format characters are percent-encoded (UTF-8),
 * so a ':' in a UserID can never pass for a separator, and keys stay printable on one log line.
 */
final class EventKeyBuilder {

    /** Keys longer than this keep a readable prefix plus a digest (see {@link #build()}). */
    static final int MAX_CHARS = 300;
    static final int READABLE_PREFIX_CHARS = 200;
    static final String DIGEST_MARKER = "#sha256=";

    private final StringBuilder key;

    /** {@code recipe} is a fixed literal from {@link EventKeys}; it is not escaped. */
    EventKeyBuilder(String recipe) {
        this.key = new StringBuilder(recipe);
    }

    /** Appends one component; null (an absent field) becomes an empty component, keeping positions fixed. */
    EventKeyBuilder with(String component) {
        key.append(':').append(escape(component == null ? "" : component));
        return this;
    }

    /**
     * The key, at most about {@value #MAX_CHARS} characters. A longer one (only the catch-all recipe, in
     * practice) keeps a readable prefix and appends SHA-256 of the whole canonical key. That is not a payload
     * hash: its input is the same escaped business-field list, so a byte-identical re-send gives the same
     * digest and envelope bytes (ciphertext, nonce, signature) never enter it. '#' is escaped in components,
     * so a digest key can never equal an unshortened key.
     */
    String build() {
        if (key.length() <= MAX_CHARS) {
            return key.toString();
        }
        int cut = READABLE_PREFIX_CHARS;
        int percent = key.lastIndexOf("%", cut - 1);
        if (percent > cut - 3) {
            cut = percent; // never cut an escape such as %3A in half
        }
        if (Character.isHighSurrogate(key.charAt(cut - 1))) {
            cut--;
        }
        return key.substring(0, cut) + DIGEST_MARKER + sha256Hex(key.toString());
    }

    static String escape(String component) {
        StringBuilder out = null;
        for (int i = 0; i < component.length(); i++) {
            char c = component.charAt(i);
            if (needsEscape(c)) {
                if (out == null) {
                    out = new StringBuilder(component.length() + 8).append(component, 0, i);
                }
                for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
                }
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? component : out.toString();
    }

    private static boolean needsEscape(char c) {
        return c == '%' || c == ':' || c == '#'
            || Character.isWhitespace(c) || Character.isSpaceChar(c)
            || Character.isISOControl(c) || Character.getType(c) == Character.FORMAT;
    }

    private static String sha256Hex(String s) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
