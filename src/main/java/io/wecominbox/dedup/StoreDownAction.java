package io.wecominbox.dedup;

/** What a handler does when one of its dedup stores cannot be reached; an operator's choice per handler. */
public enum StoreDownAction {
    /** Go on without that tier: the other tier (if any) still protects; outside it a repeat may slip through. */
    PROCEED,
    /** Roll back: JMS redelivers later with back-off (and dead-letters after the broker's attempt limit). */
    REJECT
}
