package io.wecominbox.wecom;

/** What one HTTP exchange with WeCom gave: an answer, a failure, or nothing because the deadline had passed. */
sealed interface HttpResult {

    /** Any HTTP answer, whatever its status. */
    record Answered(int status, String body) implements HttpResult {
    }

    /**
     * No usable answer. {@code requestMaybeSent}: the request may have reached WeCom (timeout or connection
     * lost after sending), so its effect is unknown; false when the connection was never made.
     */
    record Failed(String description, boolean requestMaybeSent) implements HttpResult {
    }

    /** The deadline left no time: nothing was sent. */
    record NotStarted(String description) implements HttpResult {
    }
}
