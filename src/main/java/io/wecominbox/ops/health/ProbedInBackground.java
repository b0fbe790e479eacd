package io.wecominbox.ops.health;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Readiness checks that talk to a dependency run here, once a second each, and /health/ready answers from
 * their latest result at once. Asked inline, a dependency that is away made readiness wait for every
 * check's timeouts in turn (~9 s while the broker was down), longer than a load balancer's health check
 * waits: it then took the node out although the ACK path was accepting. A result older than
 * {@value #STALE_SECONDS} s (a probe that hangs) counts as DOWN.
 */
@ApplicationScoped
public class ProbedInBackground {

    static final long PERIOD_MILLIS = 1_000;
    static final long STALE_SECONDS = 5;
    /** The first call of a check waits this long for its first answer, so that readiness never starts out UP by guess. */
    private static final long FIRST_WAIT_MILLIS = 3_000;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    private final Map<String, Probe> probes = new ConcurrentHashMap<>();

    /** The latest finding of the check {@code name}, whose {@code probe} runs in the background from the first call. */
    HealthFinding latest(String name, Supplier<HealthFinding> probe) {
        Probe p = probes.computeIfAbsent(name, n -> new Probe(n, probe));
        p.startOnce(scheduler);
        return p.answer();
    }

    @PreDestroy
    void stop() {
        probes.values().forEach(Probe::cancel);
    }

    private static final class Probe {
        private final String name;
        private final Supplier<HealthFinding> probe;
        private final CountDownLatch first = new CountDownLatch(1);
        private volatile HealthFinding last;
        private volatile long lastAtNanos;
        private ScheduledFuture<?> task;

        Probe(String name, Supplier<HealthFinding> probe) {
            this.name = name;
            this.probe = probe;
        }

        synchronized void startOnce(ManagedScheduledExecutorService scheduler) {
            if (task == null) {
                task = scheduler.scheduleWithFixedDelay(this::run, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            }
        }

        private void run() {
            HealthFinding answer;
            try {
                answer = probe.get();
            } catch (RuntimeException e) { // a check that throws must not stop its schedule
                answer = HealthFinding.named(name).detail("error", e.getClass().getSimpleName()).down("probe_failed");
            }
            last = answer;
            lastAtNanos = System.nanoTime();
            first.countDown();
        }

        HealthFinding answer() {
            try {
                first.await(FIRST_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HealthFinding answer = last;
            long ageSeconds = (System.nanoTime() - lastAtNanos) / 1_000_000_000L;
            if (answer == null) {
                return HealthFinding.named(name).detail("error", "no answer yet").down("no_answer_yet");
            }
            if (ageSeconds > STALE_SECONDS) {
                return HealthFinding.named(name).detail("error", "no answer for " + ageSeconds + " s").down("probe_hangs");
            }
            return answer;
        }

        synchronized void cancel() {
            if (task != null) {
                task.cancel(true);
            }
        }
    }
}
