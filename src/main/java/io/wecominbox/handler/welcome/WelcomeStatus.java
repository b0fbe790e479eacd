package io.wecominbox.handler.welcome;

/** How one WelcomeCode ended (welcome_send_log.status). */
public enum WelcomeStatus {
    /** WeCom accepted the welcome (errcode 0). */
    SENT,
    /** 41051: a welcome already reached the customer (e.g. our own attempt whose commit failed). Never retried. */
    ALREADY_SENT,
    /** The 20 s window closed before a send succeeded; no call is made after the deadline. */
    EXPIRED,
    /** A non-retryable error (kept with its errcode), or a configured text WeCom would refuse. */
    FAILED
}
