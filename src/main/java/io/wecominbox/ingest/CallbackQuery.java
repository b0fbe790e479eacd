package io.wecominbox.ingest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The query parameters of a callback, decoded from the raw query string by us rather than by JAX-RS:
 * RESTEasy decodes query values like a form, turning a raw '+' into a space, and a Base64 echostr is full of
 * '+'. Here {@code %2B} and a raw '+' both give '+'. The first occurrence of a repeated parameter wins.
 *
 * @param raw the query string exactly as received (kept for the audit log), "" when there is none
 */
public record CallbackQuery(String raw, String msgSignature, String timestamp, String nonce, String echostr) {

    /** Longer than any real query (4 short values and a ~100-char echostr): refused before decoding. */
    public static final int MAX_RAW_CHARS = 4096;

    public static CallbackQuery parse(String rawQuery) throws CallbackRejected {
        String raw = rawQuery == null ? "" : rawQuery;
        if (raw.length() > MAX_RAW_CHARS) {
            throw new CallbackRejected(Rejection.BAD_QUERY, "query string longer than " + MAX_RAW_CHARS);
        }
        Map<String, String> values = new HashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            values.putIfAbsent(name, value);
        }
        return new CallbackQuery(raw, values.get("msg_signature"), values.get("timestamp"), values.get("nonce"),
                values.get("echostr"));
    }

    /** Percent-decoding as UTF-8 with '+' left as it is (escaped first, so URLDecoder keeps it). */
    static String decode(String s) throws CallbackRejected {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new CallbackRejected(Rejection.BAD_QUERY, "malformed percent-encoding in the query string");
        }
    }

    /** The three values WeCom signs with: without them there is nothing to verify. */
    void requireSignatureParameters() throws CallbackRejected {
        if (msgSignature == null || msgSignature.isEmpty()) {
            throw new CallbackRejected(Rejection.MISSING_SIGNATURE, "msg_signature is missing");
        }
        if (timestamp == null || timestamp.isEmpty() || nonce == null || nonce.isEmpty()) {
            throw new CallbackRejected(Rejection.BAD_QUERY, "timestamp and nonce are required");
        }
    }
}
