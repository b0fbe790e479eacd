package io.wecominbox.dedup;

import java.util.regex.Pattern;

/**
 * Builds the one key both tiers claim: {@code wecom:{handler}:{eventKey}} plus {@code :{batchId}} for a
 * deliberate re-run. The handler name is always in it: a shared key would let the first handler swallow the
 * event for every handler added later. Only this class makes keys, so no handler can leave its name out.
 */
public final class DedupKey {

    private static final Pattern HANDLER_NAME = Pattern.compile("[a-z][a-z0-9-]{0,39}");
    private static final Pattern BATCH_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private DedupKey() {
    }

    public static String of(String handler, String eventKey, String batchId) {
        requireHandlerName(handler);
        if (eventKey == null || eventKey.isBlank()) {
            throw new IllegalArgumentException("an event without an event key cannot be deduplicated");
        }
        String key = "wecom:" + handler + ":" + eventKey;
        if (batchId == null) {
            return key;
        }
        if (!BATCH_ID.matcher(batchId).matches()) {
            throw new IllegalArgumentException("batch id must be 1-64 of [A-Za-z0-9._-]");
        }
        return key + ":" + batchId;
    }

    public static String requireHandlerName(String handler) {
        if (handler == null || !HANDLER_NAME.matcher(handler).matches()) {
            throw new IllegalArgumentException("handler name must match " + HANDLER_NAME + ": " + handler);
        }
        return handler;
    }
}
