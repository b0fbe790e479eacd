package io.wecominbox.dedup;

/** Runs work after the current transaction ends, by outcome (the hot tier and dispositions are not XA). */
public interface TransactionHooks {

    void afterCompletion(Runnable onCommit, Runnable onRollback);
}
