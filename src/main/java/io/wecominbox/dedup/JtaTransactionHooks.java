package io.wecominbox.dedup;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link TransactionHooks} on the JTA transaction of the message-driven bean: a synchronization decides by
 * the real outcome, which a try/catch around the handler cannot know (the commit itself can still fail).
 */
@ApplicationScoped
public class JtaTransactionHooks implements TransactionHooks {

    private static final Logger LOG = Logger.getLogger(JtaTransactionHooks.class.getName());

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void afterCompletion(Runnable onCommit, Runnable onRollback) {
        registry.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                try {
                    (status == Status.STATUS_COMMITTED ? onCommit : onRollback).run();
                } catch (RuntimeException e) {
                    // The transaction is over; a hot-tier write that fails here only shortens its protection.
                    LOG.log(Level.WARNING, "after-completion step failed (status " + status + ")", e);
                }
            }
        });
    }
}
