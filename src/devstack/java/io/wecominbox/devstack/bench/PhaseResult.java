package io.wecominbox.devstack.bench;

import java.util.Map;

/**
 * What one measured phase did: an open-loop step, the closed-loop run or a pgbench run.
 *
 * @param offeredPerSecond the scheduled arrival rate (open loop); NaN for closed-loop phases
 * @param achievedPerSecond acknowledged (or committed) per second over the phase, including its drain
 * @param errors failed requests by cause ("503", "no answer", ...)
 * @param cpu CPU % of one core per component (see {@link CpuMeter})
 */
record PhaseResult(String name, int concurrency, double offeredPerSecond, double achievedPerSecond, long ok,
                   Map<String, Long> errors, LatencySamples.Summary latency, Map<String, Double> cpu,
                   double loadAverage) {

    PhaseResult renamed(String newName) {
        return new PhaseResult(newName, concurrency, offeredPerSecond, achievedPerSecond, ok, errors, latency, cpu,
                loadAverage);
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
