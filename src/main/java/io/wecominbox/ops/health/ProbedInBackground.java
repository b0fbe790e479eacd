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
 * Readiness checks that talk to a dependency run here, in the background, and /health/ready answers from
 * their latest result at once. Asked inline, a dependency that is away made readiness wait for every
 * check's timeouts in turn (~9 s while the broker was down), longer than a load balancer's health check
 * waits: it then took the node out although the ACK path was accepting. A check runs every second, or, while
 * it is UP, as rarely as its caller asks: what changes only with a broker's configuration need not cost the
 * broker a management read every second. A probe still running after {@value #STALE_SECONDS} s (one that
 * hangs) counts as DOWN.
 */
@ApplicationScoped
public class ProbedInBackground {

    /** Every check ticks this often; a tick probes unless the check is UP and its own period has not passed. */
    static final long TICK_MILLIS = 1_000;
    static final long STALE_SECONDS = 5;
    /** The first call of a check waits this long for its first answer, so that readiness never starts out UP by guess. */
    private static final long FIRST_WAIT_MILLIS = 3_000;
    /** A tick may come a little early or late: a period of N s means every Nth tick, not every N+1st. */
    private static final long TICK_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    @Resource
    ManagedScheduledExecutorService scheduler;

    private final Map<String, Probe> probes = new ConcurrentHashMap<>();

    /** The latest finding of the check {@code name}, whose {@code probe} runs every second from the first call. */
    HealthFinding latest(String name, Supplier<HealthFinding> probe) {
        return latest(name, 1, probe);
    }

    /**
     * As {@link #latest(String, Supplier)}, but while the last finding is UP the probe runs only every
     * {@code upPeriodSeconds}; a DOWN finding is checked again every second, so that recovery shows at once.
     */
    HealthFinding latest(String name, long upPeriodSeconds, Supplier<HealthFinding> probe) {
        Probe p = probes.computeIfAbsent(name, n -> new Probe(n, probe, upPeriodSeconds));
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
        private final long upPeriodNanos;
        private final CountDownLatch first = new CountDownLatch(1);
        private volatile HealthFinding last;
        private volatile long lastProbedNanos;
        // the tick runs every second even when it does not probe, so a hung probe shows as a tick that stopped
        private volatile long lastTickNanos;
        private ScheduledFuture<?> task;

        Probe(String name, Supplier<HealthFinding> probe, long upPeriodSeconds) {
            this.name = name;
            this.probe = probe;
            this.upPeriodNanos = TimeUnit.SECONDS.toNanos(Math.max(1, upPeriodSeconds));
        }

        synchronized void startOnce(ManagedScheduledExecutorService scheduler) {
            if (task == null) {
                task = scheduler.scheduleWithFixedDelay(this::run, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
            }
        }

        private void run() {
            long now = System.nanoTime();
            HealthFinding previous = last;
            if (previous != null && previous.up() && now - lastProbedNanos < upPeriodNanos - TICK_SLACK_NANOS) {
                lastTickNanos = now;
                return;
            }
            HealthFinding answer;
            try {
                answer = probe.get();
            } catch (RuntimeException e) { // a check that throws must not stop its schedule
                answer = HealthFinding.named(name).detail("error", e.getClass().getSimpleName()).down("probe_failed");
            }
            last = answer;
            lastProbedNanos = now;
            lastTickNanos = System.nanoTime();
            first.countDown();
        }

        HealthFinding answer() {
            try {
                first.await(FIRST_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HealthFinding answer = last;
            long ageSeconds = (System.nanoTime() - lastTickNanos) / 1_000_000_000L;
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
