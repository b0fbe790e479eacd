package io.wecominbox.dedup;

/** The hot tier's answer to a claim. */
public enum HotClaim {
    /** The key is ours now (or was already ours: our own claim left by a crash or a failed release). */
    CLAIMED,
    /** Someone committed this key inside the hot window: a duplicate. */
    DONE,
    /** Another delivery holds an uncommitted claim: the cold tier decides (it waits for that transaction). */
    HELD_BY_OTHER,
    /** The store did not answer (or its circuit breaker is open). */
    STORE_DOWN
}
