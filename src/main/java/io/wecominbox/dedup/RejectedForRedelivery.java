package io.wecominbox.dedup;

/**
 * Thrown to roll the delivery back on purpose (a store is down and the policy says REJECT, or another
 * delivery of the same key is in flight and no store can tell the outcome): JMS redelivers it later.
 */
public class RejectedForRedelivery extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RejectedForRedelivery(String message) {
        super(message, null, false, false); // expected under an outage: no stack trace per message
    }
}
