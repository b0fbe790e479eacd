package io.wecominbox.devstack.bench;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * N senders, each posting the next callback as soon as the previous one was answered, for a fixed time: the
 * most the stack acknowledges at concurrency N (what pgbench -c N measures for the database alone).
 * Latency here is per request (a closed loop has no schedule to fall behind).
 */
final class ClosedLoopRun {

    private final IngestTarget target;

    ClosedLoopRun(IngestTarget target) {
        this.target = target;
    }

    PhaseResult run(String name, int concurrency, long seconds, List<CallbackFeed.Callback> callbacks,
                    CpuMeter cpu) throws InterruptedException {
        LatencySamples latency = new LatencySamples();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        LongAdder ok = new LongAdder();
        AtomicInteger next = new AtomicInteger();
        CpuMeter.Reading before = cpu.read();
        long start = System.nanoTime();
        long stopAt = start + seconds * 1_000_000_000L;
        Thread[] senders = new Thread[concurrency];
        for (int t = 0; t < concurrency; t++) {
            senders[t] = new Thread(() -> {
                int i;
                while (System.nanoTime() < stopAt && (i = next.getAndIncrement()) < callbacks.size()) {
                    long sent = System.nanoTime();
                    int outcome = target.post(callbacks.get(i));
                    latency.add(System.nanoTime() - sent);
                    if (outcome == IngestTarget.ACK) {
                        ok.increment();
                    } else {
                        errors.computeIfAbsent(OpenLoopStep.describe(outcome), k -> new LongAdder()).increment();
                    }
                }
            }, "bench-closed-" + t);
            senders[t].start();
        }
        for (Thread sender : senders) {
            sender.join();
        }
        long end = System.nanoTime();
        CpuMeter.Reading after = cpu.read();
        if (next.get() >= callbacks.size()) {
            System.err.println("[bench] closed loop ran out of pre-sealed callbacks: raise --closed-capacity");
        }
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        return new PhaseResult(name, concurrency, Double.NaN, ok.sum() / ((end - start) / 1e9), ok.sum(),
                errorCounts, latency.summary(), cpu.usage(before, after), LoadAverage.now());
    }
}
