package io.wecominbox.dedup;

/** What happened to one delivery at one handler; counted per handler and kept in handler_disposition. */
public enum Disposition {
    /** The effect ran on the first delivery attempt. */
    PROCESSED,
    /** The hot tier (Redis) already had the key done: answered without touching the database. */
    DUPLICATE_HOT,
    /** The cold tier (database unique key) already had the key: nothing ran. */
    DUPLICATE_COLD,
    /** The effect ran on a JMS redelivery, after earlier attempts rolled back. */
    RETRIED,
    /** The effect ran again on purpose: the delivery carried a batch id (replay). */
    FORCED,
    /** The effect ran although a dedup store was down, because the handler's policy says PROCEED. */
    PROCEEDED_WITHOUT_STORE,
    /** A dedup store was down and the policy says REJECT: rolled back, JMS redelivers later. */
    REJECTED_STORE_DOWN
}
