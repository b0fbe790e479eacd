package io.wecominbox.ops.security;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A request path as a servlet container resolves it, to decide what a path is without being fooled by its
 * spelling: {@code ;} path parameters dropped per segment, each segment percent-decoded, empty and {@code .}
 * segments skipped, {@code ..} taken back. {@code /api/../api/}, {@code //api}, {@code /api;x/} and
 * {@code /%61pi/} all become {@code [api]}. A path that cannot be read that way (bad percent-encoding, an
 * encoded {@code /} or {@code \}) has no segments at all: callers treat it as anything but what they trust.
 */
final class RequestPath {

    private RequestPath() {
    }

    /** The resolved segments of a raw (still percent-encoded) path, or empty when it is ambiguous. */
    static Optional<List<String>> segments(String rawPath) {
        List<String> resolved = new ArrayList<>();
        for (String raw : (rawPath == null ? "" : rawPath).split("/", -1)) {
            int parameters = raw.indexOf(';');
            String segment;
            try {
                segment = URLDecoder.decode((parameters < 0 ? raw : raw.substring(0, parameters)).replace("+", "%2B"),
                        StandardCharsets.UTF_8);
            } catch (IllegalArgumentException malformed) {
                return Optional.empty();
            }
            if (segment.indexOf('/') >= 0 || segment.indexOf('\\') >= 0 || segment.indexOf(';') >= 0
                    || segment.indexOf('\uFFFD') >= 0) {
                return Optional.empty(); // a separator smuggled inside a segment, or bytes that are not UTF-8
            }
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (!resolved.isEmpty()) {
                    resolved.remove(resolved.size() - 1);
                }
                continue;
            }
            resolved.add(segment);
        }
        return Optional.of(resolved);
    }

    /**
     * The segments of {@code rawPath} below the application's base path (its context root), or empty when the
     * path is ambiguous or not below the base.
     */
    static Optional<List<String>> below(String rawBasePath, String rawPath) {
        Optional<List<String>> base = segments(rawBasePath);
        Optional<List<String>> path = segments(rawPath);
        if (base.isEmpty() || path.isEmpty() || path.get().size() < base.get().size()
                || !path.get().subList(0, base.get().size()).equals(base.get())) {
            return Optional.empty();
        }
        return Optional.of(path.get().subList(base.get().size(), path.get().size()));
    }
}
