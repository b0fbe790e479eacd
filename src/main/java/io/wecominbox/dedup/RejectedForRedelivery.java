package io.wecominbox.dedup;

/**
 * Thrown to roll the delivery back on purpose (a store is down and the policy says REJECT, or another
 * delivery of the same key is in flight and no store can tell the outcome): JMS redelivers it later.
 * The message says why and never holds the key: keys are made of customers' identifiers, and the message is
 * logged. The key travels beside it for the one who logs it to redact.
 */
public class RejectedForRedelivery extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;

    /** @param key the dedup key concerned (personal data: never put it in the message) */
    public RejectedForRedelivery(String message, String key) {
        super(message, null, false, false); // expected under an outage: no stack trace per message
        this.key = key;
    }

    public String key() {
        return key;
    }
}
