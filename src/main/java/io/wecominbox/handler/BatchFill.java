package io.wecominbox.handler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * How a handler's transaction fills its batch from the queue: first what already waits, then, while the batch
 * is not full and its linger (counted from the batch's start) has time left, what arrives. At moderate load a
 * batch would otherwise hold one message, and each message would pay a prepare and a commit of its own.
 *
 * @param <M> the queue's message type
 */
final class BatchFill<M> {

    /** The queue, as the batch sees it: null when nothing came. */
    interface Source<M> {
        M takeWaiting();

        M awaitArrival(long millis);
    }

    private final int max;
    private final Duration linger;
    private final Predicate<M> endsBatch;
    private final LongSupplier nanoTime;

    /**
     * @param max       largest batch, {@code first} included
     * @param linger    how long, from the start, to wait for arrivals once nothing waits; zero: never wait
     * @param endsBatch a message after which nothing more is taken (one redelivered from a batch that rolled back)
     * @param nanoTime  the clock ({@code System::nanoTime})
     */
    BatchFill(int max, Duration linger, Predicate<M> endsBatch, LongSupplier nanoTime) {
        this.max = max;
        this.linger = linger;
        this.endsBatch = endsBatch;
        this.nanoTime = nanoTime;
    }

    List<M> fill(M first, Source<M> source) {
        long lingerEnds = nanoTime.getAsLong() + linger.toNanos();
        List<M> batch = new ArrayList<>(Math.min(max, 64));
        batch.add(first);
        while (batch.size() < max) {
            M next = source.takeWaiting();
            if (next == null) {
                long leftMillis = (lingerEnds - nanoTime.getAsLong()) / 1_000_000;
                next = leftMillis > 0 ? source.awaitArrival(leftMillis) : null;
                if (next == null) {
                    break;
                }
            }
            batch.add(next);
            if (endsBatch.test(next)) {
                break;
            }
        }
        return batch;
    }
}
