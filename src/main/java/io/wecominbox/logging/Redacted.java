package io.wecominbox.logging;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a log line at INFO or above may say about a personal identifier (UserID, ExternalUserID, WelcomeCode,
 * or an event key made of them): the first 12 hex digits of its SHA-256. The same value gives the same tag in
 * every line, on every node, across restarts, so lines can be followed and matched to a row; the value itself
 * is not in the log. An operator with database access finds the row of a tag in SQL
 * (docs/operations.md, "Personal identifiers in logs"); prefer the row id (callback_log) where the line has one.
 */
public final class Redacted {

    /** 48 bits: a collision among the keys of one incident's log lines is practically impossible. */
    public static final int HEX_DIGITS = 12;

    private Redacted() {
    }

    /** {@code #} and 12 hex digits; {@code #-} for null. */
    public static String id(String value) {
        if (value == null) {
            return "#-";
        }
        byte[] digest = sha256().digest(value.getBytes(StandardCharsets.UTF_8));
        return "#" + HexFormat.of().formatHex(digest).substring(0, HEX_DIGITS);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
