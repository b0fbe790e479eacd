package io.wecominbox.ingest;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The body deadlines of the callbacks still being read, checked by one periodic sweep rather than a timer per
 * request. A cancelled timer of a scheduled executor stays queued until it would have fired, and with it the
 * request it answers: at 500 callbacks/s a 5 s timer kept 2,500 finished requests (their buffers, contexts and
 * responses) alive, which the garbage collector copied and promoted at every pause.
 */
final class BodyDeadlines {

    private static final Logger LOG = Logger.getLogger(BodyDeadlines.class.getName());

    /** One request's deadline; {@link #cancel()} once its body is complete or refused. */
    final class Pending {
        private final long dueNanos;
        private final Runnable onExpiry;

        private Pending(long dueNanos, Runnable onExpiry) {
            this.dueNanos = dueNanos;
            this.onExpiry = onExpiry;
        }

        void cancel() {
            pending.remove(this);
        }
    }

    private final Set<Pending> pending = ConcurrentHashMap.newKeySet();
    private final Executor expiries;

    /** @param expiries where an expired request is answered (not the sweeping thread: a slow write must not hold it) */
    BodyDeadlines(Executor expiries) {
        this.expiries = expiries;
    }

    Pending register(long dueNanos, Runnable onExpiry) {
        Pending p = new Pending(dueNanos, onExpiry);
        pending.add(p);
        return p;
    }

    /** Hands every deadline due by {@code byNanos} to its expiry, once; the sweep calls it periodically. */
    void expireDue(long byNanos) {
        for (Pending p : pending) {
            if (byNanos - p.dueNanos >= 0 && pending.remove(p)) {
                try {
                    expiries.execute(p.onExpiry);
                } catch (RuntimeException refused) {
                    runHere(p); // the executor is shutting down: answer here rather than never
                }
            }
        }
    }

    /** On the sweeping thread, whose periodic task would end for good if anything escaped it. */
    private static void runHere(Pending p) {
        try {
            p.onExpiry.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a callback's body deadline could not be answered", e);
        }
    }

    int size() {
        return pending.size();
    }
}
