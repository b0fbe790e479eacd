package io.wecominbox.devstack.bench;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * WeCom's side of the mix bench: each planned callback is sent at its due time whatever the server does (open
 * loop, latency from the due time), waited for at most 5 s, and re-sent byte for byte on WeCom's schedule when no
 * in-time 200 "success" came. Connections are bounded ({@code maxConnections} requests in flight, each on its own
 * kept-alive HTTP/1.1 connection), so the driver's CPU stays small; an attempt that finds none free before its
 * deadline is counted as not sent (the driver's limit, shown apart) and treated as unanswered.
 */
final class MixOpenLoop implements AutoCloseable {

    private final IngestTarget target;
    private final Semaphore connections;
    private final Duration ackTimeout;
    private final Supplier<ResendPlan> plans;
    private final ScheduledExecutorService resender = Executors.newScheduledThreadPool(2,
            IngestTarget.daemon("bench-resend"));
    private volatile boolean resending = true;

    /** {@code plans}: a fresh schedule per event (the late retry's jitter is drawn per event); null: no re-sends. */
    MixOpenLoop(IngestTarget target, int maxConnections, Duration ackTimeout, Supplier<ResendPlan> plans) {
        this.target = target;
        this.connections = new Semaphore(maxConnections);
        this.ackTimeout = ackTimeout;
        this.plans = plans;
        this.resending = plans != null;
    }

    /**
     * Sends the first attempts at {@code startNanos + offset}; returns when the last was sent (the step's end).
     * {@link #awaitFirstAttempts} then waits for their answers; re-sends go on in the background.
     */
    CountDownLatch send(List<MixFeed.Planned> planned, long startNanos, DeliveryTally tally) {
        CountDownLatch firstDone = new CountDownLatch(planned.size());
        for (MixFeed.Planned p : planned) {
            long due = startNanos + p.offsetNanos();
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            tally.events.increment();
            Delivery delivery = new Delivery(p, due, plans == null ? null : plans.get(), tally, firstDone);
            delivery.attempt(1, due, true);
        }
        return firstDone;
    }

    static boolean awaitFirstAttempts(CountDownLatch firstDone, Duration limit) throws InterruptedException {
        return firstDone.await(limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** No more re-sends from now on (those scheduled are dropped): the next phase starts clean. */
    void stopResending() {
        resending = false;
    }

    @Override
    public void close() {
        resending = false;
        resender.shutdownNow();
    }

    /** One event's attempts. */
    private final class Delivery {
        final MixFeed.Planned planned;
        final long firstDue;
        final ResendPlan plan;
        final DeliveryTally tally;
        final CountDownLatch firstDone;

        Delivery(MixFeed.Planned planned, long firstDue, ResendPlan plan, DeliveryTally tally,
                 CountDownLatch firstDone) {
            this.planned = planned;
            this.firstDue = firstDue;
            this.plan = plan;
            this.tally = tally;
            this.firstDone = firstDone;
        }

        /** Attempt {@code number}, due at {@code due}; the first blocks the sender for a connection, re-sends wait. */
        void attempt(int number, long due, boolean blocking) {
            long deadline = due + ackTimeout.toNanos();
            boolean got;
            if (blocking) {
                connections.acquireUninterruptibly(); // the loop falls behind: later due times are charged
                got = true;
            } else {
                try {
                    got = connections.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            long left = deadline - System.nanoTime();
            if (!got || left <= 0) {
                if (got) {
                    connections.release();
                }
                tally.notSent.increment();
                ended(number, false, "not sent: no free connection in the driver", System.nanoTime(), due);
                return;
            }
            target.postAsync(planned.callback(), Duration.ofNanos(left)).whenComplete((outcome, failure) -> {
                long now = System.nanoTime();
                connections.release();
                boolean acked = outcome != null && outcome == IngestTarget.ACK && now - due <= ackTimeout.toNanos();
                String kind = acked ? null : outcome == null || outcome == IngestTarget.NO_ANSWER
                        ? "no answer in " + ackTimeout.toSeconds() + " s" : OpenLoopStep.describe(outcome);
                ended(number, acked, kind, now, due);
            });
        }

        private void ended(int number, boolean acked, String failure, long endedNanos, long due) {
            if (number == 1) {
                tally.firstAttemptEnded(due, endedNanos, acked);
                firstDone.countDown();
            } else if (acked) {
                tally.resendsAnswered.increment();
            }
            if (acked) {
                tally.acknowledged.increment();
                return;
            }
            tally.failure(failure);
            OptionalLong next = plan == null ? OptionalLong.empty() : plan.nextAttemptNanos(firstDue, number, endedNanos);
            if (next.isEmpty() || !resending) {
                tally.gaveUp.increment();
                return;
            }
            long at = next.getAsLong();
            try {
                resender.schedule(() -> {
                    if (resending) {
                        tally.resends.increment();
                        attempt(number + 1, at, false);
                    }
                }, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                tally.gaveUp.increment();
            }
        }
    }
}
