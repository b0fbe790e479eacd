package io.wecominbox.dedup;

/** The cold tier's answer to a claim. */
public enum ColdClaim {
    /** The dedup row was inserted in the current transaction: run the effect; both commit together. */
    CLAIMED,
    /** A committed row already holds the key: a duplicate. */
    DUPLICATE,
    /** No database connection could be had (or its circuit breaker is open). */
    STORE_DOWN
}
