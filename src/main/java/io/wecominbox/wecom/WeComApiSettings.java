package io.wecominbox.wecom;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * How the WeCom API client talks to WeCom, from MicroProfile Config ({@code wecom.api.*}; e.g.
 * {@code WECOM_API_BASE_URL} overrides). Timeouts are clamped far under the 20 s welcome window, so a call
 * made inside an XA transaction cannot hold it open for long whatever the configuration says.
 *
 * @param baseUrl              WeCom, the simulator or a proxy; no trailing slash
 * @param connectTimeout       TCP + TLS connect
 * @param readTimeout          from request sent to complete answer
 * @param callBudget           the most one API method spends, whatever deadline its caller gives
 * @param tokenRefreshRatio    share of expires_in after which a token is fetched anew (0.8 = at 80 %)
 * @param gettokenBusyRetries  extra gettoken attempts on errcode -1 / HTTP 5xx within one fetch
 * @param gettokenBusyPause    pause before such an extra attempt (doubles each time)
 * @param failuresBeforeBackoff consecutive failed gettoken calls after which the app backs off
 * @param backoffInitial       first back-off; doubles with each further failure
 * @param backoffMax           longest back-off
 */
public record WeComApiSettings(URI baseUrl, Duration connectTimeout, Duration readTimeout, Duration callBudget,
                               double tokenRefreshRatio, int gettokenBusyRetries, Duration gettokenBusyPause,
                               int failuresBeforeBackoff, Duration backoffInitial, Duration backoffMax) {

    public static final String BASE_URL = "wecom.api.base-url";
    public static final String DEFAULT_BASE_URL = "https://qyapi.weixin.qq.com";
    /** Upper bound for connect and read timeouts each: two of them still fit well inside 20 s. */
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(8);
    static final Duration MIN_TIMEOUT = Duration.ofMillis(50);

    public WeComApiSettings {
        baseUrl = URI.create(stripTrailingSlash(baseUrl.toString()));
        connectTimeout = clamp(connectTimeout, MIN_TIMEOUT, MAX_TIMEOUT);
        readTimeout = clamp(readTimeout, MIN_TIMEOUT, MAX_TIMEOUT);
        callBudget = clamp(callBudget, MIN_TIMEOUT, Duration.ofSeconds(20));
        tokenRefreshRatio = Math.min(0.95, Math.max(0.1, tokenRefreshRatio));
        gettokenBusyRetries = Math.max(0, Math.min(5, gettokenBusyRetries));
        failuresBeforeBackoff = Math.max(1, failuresBeforeBackoff);
        backoffMax = clamp(backoffMax, Duration.ofSeconds(1), Duration.ofHours(1));
        backoffInitial = clamp(backoffInitial, Duration.ofMillis(100), backoffMax);
    }

    /** Defaults for everything; only the base URL given. */
    public static WeComApiSettings defaults(URI baseUrl) {
        return read(key -> key.equals(BASE_URL) ? Optional.of(baseUrl.toString()) : Optional.empty());
    }

    /** @param lookup a config property by name; empty when unset */
    public static WeComApiSettings read(Function<String, Optional<String>> lookup) {
        Function<String, Optional<String>> value = key -> lookup.apply(key).map(String::strip).filter(v -> !v.isEmpty());
        return new WeComApiSettings(
                URI.create(value.apply(BASE_URL).orElse(DEFAULT_BASE_URL)),
                millis(value, "wecom.api.connect-timeout-ms", 2_000),
                millis(value, "wecom.api.read-timeout-ms", 3_000),
                millis(value, "wecom.api.call-budget-ms", 15_000),
                value.apply("wecom.api.token-refresh-ratio").map(Double::parseDouble).orElse(0.8),
                value.apply("wecom.api.gettoken-busy-retries").map(Integer::parseInt).orElse(2),
                millis(value, "wecom.api.gettoken-busy-pause-ms", 200),
                value.apply("wecom.api.gettoken-failures-before-backoff").map(Integer::parseInt).orElse(5),
                millis(value, "wecom.api.gettoken-backoff-initial-ms", 5_000),
                millis(value, "wecom.api.gettoken-backoff-max-ms", 300_000));
    }

    private static Duration millis(Function<String, Optional<String>> value, String key, long defaultMillis) {
        return Duration.ofMillis(value.apply(key).map(Long::parseLong).orElse(defaultMillis));
    }

    private static Duration clamp(Duration d, Duration min, Duration max) {
        return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? stripTrailingSlash(url.substring(0, url.length() - 1)) : url;
    }
}
