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
        if (!isBatchId(batchId)) {
            throw new IllegalArgumentException(BATCH_ID_RULE);
        }
        return key + ":" + batchId;
    }

    /** What a batch id may look like (the replay API checks a request against the same rule). */
    public static final String BATCH_ID_RULE = "batch id must be 1-64 of [A-Za-z0-9._-]";

    public static boolean isBatchId(String batchId) {
        return batchId != null && BATCH_ID.matcher(batchId).matches();
    }

    public static String requireHandlerName(String handler) {
        if (handler == null || !HANDLER_NAME.matcher(handler).matches()) {
            throw new IllegalArgumentException("handler name must match " + HANDLER_NAME + ": " + handler);
        }
        return handler;
    }
}
