package io.wecominbox.e2e;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.SimEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The platform side of one case: a background thread hands the simulator {@code count} events of the mix at
 * a steady rate (each then delivered with WeCom's retries), while the test disturbs the stack.
 */
public final class EventFeed {

    /** One event the simulator is delivering, and how its delivery ended. */
    public record Sent(SimEvent event, CompletableFuture<DeliveryOutcome> outcome) {
    }

    private final WeComSimulator sim;
    private final EventMix mix;
    private final int count;
    private final long intervalNanos;
    private final List<Sent> sent = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;

    public EventFeed(WeComSimulator sim, EventMix mix, int count, double perSecond) {
        this.sim = sim;
        this.mix = mix;
        this.count = count;
        this.intervalNanos = (long) (1_000_000_000L / perSecond);
        this.thread = new Thread(this::feed, "e2e-event-feed");
        this.thread.setDaemon(true);
    }

    public EventFeed start() {
        thread.start();
        return this;
    }

    /** Stops handing out new events (those already started keep being delivered and retried). */
    void stopFeeding() throws InterruptedException {
        stopped = true;
        thread.join();
    }

    /** Waits until every event was handed out, then until the platform stopped trying for each. */
    public List<Sent> awaitDeliveries(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        thread.join(Math.max(1, timeout.toMillis()));
        for (Sent s : sent()) {
            long left = deadline - System.nanoTime();
            try {
                s.outcome().get(Math.max(1, left), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("the simulator still delivers " + s.event().id() + " after " + timeout, e);
            }
        }
        return sent();
    }

    public synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }

    private void feed() {
        long next = System.nanoTime();
        for (int i = 0; i < count && !stopped; i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (stopped) {
                return;
            }
            SimEvent event = mix.next(sim);
            CompletableFuture<DeliveryOutcome> outcome = sim.deliverAsync(event);
            synchronized (this) {
                sent.add(new Sent(event, outcome));
            }
            next += intervalNanos;
        }
    }
}
