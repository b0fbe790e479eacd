package io.wecominbox.simulator.platform;

/** How one delivery attempt ended, seen from the platform. Only ACKED stops the retries. */
public enum DeliveryStatus {
    /** HTTP 200 within the ACK timeout. */
    ACKED,
    /** The app answered 200 in time, but a "lost ACK" fault made the platform ignore it and re-send. */
    LOST_ACK,
    /** The app answered 200 in time, but the platform pretends it was too slow and re-sends. */
    SLOW_ACK_PRETENDED,
    /** No answer within the ACK timeout; the platform dropped the connection. */
    TIMEOUT,
    /** An answer other than HTTP 200. */
    HTTP_ERROR,
    /** Connection refused, reset or closed without an answer. */
    CONNECTION_ERROR;

    /** True when the app itself answered 200 in time (whatever the platform then pretended). */
    public boolean appAnsweredOk() {
        return this == ACKED || this == LOST_ACK || this == SLOW_ACK_PRETENDED;
    }
}
