package io.wecominbox.devstack.bench;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Fixed arrival rate, whatever the server does: request i is due at start + i / rate, and its latency runs
 * from that due time, not from when it actually left. A server that stalls therefore shows its full cost
 * (no coordinated omission): requests the driver could not send on time count the wait as latency too.
 */
final class OpenLoopStep {

    /** More than this many unanswered requests and the driver waits (still charging the delay to latency). */
    private static final int MAX_IN_FLIGHT = 2000;
    private static final long DRAIN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final IngestTarget target;

    OpenLoopStep(IngestTarget target) {
        this.target = target;
    }

    /** Runs {@code callbacks.size()} requests at {@code ratePerSecond}; CPU is measured from first to last. */
    PhaseResult run(String name, double ratePerSecond, List<CallbackFeed.Callback> callbacks, CpuMeter cpu) {
        return run(name, ratePerSecond, callbacks, cpu, List.of(), 1);
    }

    /**
     * The same, also filing each latency under the window of its due time ({@code windows.get(i)} holds the
     * requests due in [i, i + 1) × {@code windowNanos} from the start; later ones go to the last window).
     */
    PhaseResult run(String name, double ratePerSecond, List<CallbackFeed.Callback> callbacks, CpuMeter cpu,
                    List<LatencySamples> windows, long windowNanos) {
        LatencySamples latency = new LatencySamples();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        LongAdder ok = new LongAdder();
        AtomicLong lastDone = new AtomicLong();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        CountDownLatch done = new CountDownLatch(callbacks.size());
        long period = (long) (1e9 / ratePerSecond);
        CpuMeter.Reading before = cpu.read();
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        for (int i = 0; i < callbacks.size(); i++) {
            long due = start + i * period;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            inFlight.acquireUninterruptibly();
            target.postAsync(callbacks.get(i)).whenComplete((outcome, failure) -> {
                long now = System.nanoTime();
                latency.add(now - due);
                if (!windows.isEmpty()) {
                    windows.get((int) Math.min(windows.size() - 1, (due - start) / windowNanos)).add(now - due);
                }
                lastDone.accumulateAndGet(now, Math::max);
                if (outcome != null && outcome == IngestTarget.ACK) {
                    ok.increment();
                } else {
                    errors.computeIfAbsent(describe(outcome), k -> new LongAdder()).increment();
                }
                inFlight.release();
                done.countDown();
            });
        }
        long sendEnd = System.nanoTime();
        boolean drained = await(done, DRAIN_LIMIT_NANOS);
        CpuMeter.Reading after = cpu.read();
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        if (!drained) {
            errorCounts.merge("unanswered after drain", done.getCount(), Long::sum);
        }
        long end = Math.max(sendEnd, lastDone.get());
        double seconds = (end - start) / 1e9;
        // Offered = the schedule. Behind a saturated server the in-flight cap may delay sends; that delay is
        // already in the latencies, so the schedule, not the slower actual send rate, is what was offered.
        return new PhaseResult(name, 0, ratePerSecond,
                ok.sum() / seconds, ok.sum(), errorCounts, latency.summary(), cpu.usage(before, after),
                LoadAverage.now());
    }

    static String describe(Integer outcome) {
        if (outcome == null || outcome == IngestTarget.NO_ANSWER) {
            return "no answer";
        }
        return outcome == 299 ? "200 not success" : "HTTP " + outcome;
    }

    private static boolean await(CountDownLatch latch, long nanos) {
        try {
            return latch.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
