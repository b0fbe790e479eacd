package io.wecominbox.ops.security;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides whether a request was made by a browser on behalf of another site's page. Pure, so every bypass is a
 * unit test; {@link CrossSiteRequestFilter} feeds it the request.
 *
 * <ul>
 *   <li>Scope: every state-changing method on every path except WeCom's callbacks, which carry no login and are
 *       authenticated by their signature. Deciding on the resolved path ({@link RequestPath}) and exempting the one
 *       exact public shape fails closed: a new admin path, or an old one spelt oddly, is checked.</li>
 *   <li>A browser that sends {@code Sec-Fetch-Site} says what it knows: only {@code same-origin} (or {@code none},
 *       typed by the user) passes. {@code same-site} is refused: a page on another port of this host (the broker
 *       console, the simulator) is same-site, not ours.</li>
 *   <li>Otherwise the {@code Origin}, else the {@code Referer}, must have this request's own scheme, host and port
 *       (or be one of the trusted origins, for a proxy that changes them). No header at all: a tool, not a
 *       browser, and it holds no victim's cookies or credentials.</li>
 * </ul>
 */
final class CrossSiteCheck {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");
    private static final Pattern APP_NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

    private final Set<String> trustedOrigins;

    /** @param trustedOrigins origins ({@code https://host[:port]}) accepted besides the request's own */
    CrossSiteCheck(Set<String> trustedOrigins) {
        this.trustedOrigins = trustedOrigins.stream().map(CrossSiteCheck::originOf).flatMap(Optional::stream)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** What the filter knows of a request; header values null when absent. */
    record BrowserRequest(String method, String rawBasePath, URI requestUri, String origin, String referer,
                          String fetchSite) {
    }

    boolean isForeign(BrowserRequest r) {
        if (SAFE.contains(r.method().toUpperCase(Locale.ROOT)) || isWeComCallback(r)) {
            return false;
        }
        if (r.fetchSite() != null) {
            String site = r.fetchSite().trim().toLowerCase(Locale.ROOT);
            return !site.equals("same-origin") && !site.equals("none");
        }
        String claimed = r.origin() != null ? r.origin() : r.referer();
        if (claimed == null) {
            return false;
        }
        Optional<String> origin = originOf(claimed);
        return origin.isEmpty() || !(origin.equals(originOf(r.requestUri())) || trustedOrigins.contains(origin.get()));
    }

    private static boolean isWeComCallback(BrowserRequest r) {
        Optional<List<String>> path = RequestPath.below(r.rawBasePath(), r.requestUri().getRawPath());
        return path.isPresent() && path.get().size() == 3 && path.get().get(0).equals("wecom")
                && path.get().get(1).equals("callback") && APP_NAME.matcher(path.get().get(2)).matches();
    }

    /** {@code scheme://host:port}, lower case, the port always written out; empty for "null" or garbage. */
    static Optional<String> originOf(String value) {
        try {
            return originOf(URI.create(value.trim()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static Optional<String> originOf(URI uri) {
        String scheme = uri.getScheme();
        String host = uri.getHost();
        if (scheme == null || host == null) {
            return Optional.empty();
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
        return port < 0 ? Optional.empty() : Optional.of(scheme + "://" + host.toLowerCase(Locale.ROOT) + ":" + port);
    }
}
