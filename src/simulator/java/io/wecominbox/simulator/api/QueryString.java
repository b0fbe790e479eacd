package io.wecominbox.simulator.api;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Parses a raw query string. Decodes %XX only: a raw '+' stays '+', as the protocol notes ask. */
final class QueryString {

    private QueryString() {
    }

    static Map<String, String> parse(String rawQuery) {
        Map<String, String> values = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            values.putIfAbsent(percentDecode(name), percentDecode(value));
        }
        return values;
    }

    static String percentDecode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && isHex(s, i + 1)) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                int codePoint = s.codePointAt(i);
                out.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(codePoint) - 1;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(String s, int from) {
        return Character.digit(s.charAt(from), 16) >= 0 && Character.digit(s.charAt(from + 1), 16) >= 0;
    }
}
