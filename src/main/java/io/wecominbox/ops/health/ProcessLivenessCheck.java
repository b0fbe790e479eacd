package io.wecominbox.ops.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness is cheap on purpose: a database or broker outage must make us unready (no traffic), not
 * dead (a restart would not fix it). Down only when the JVM is nearly out of heap.
 */
@Liveness
@ApplicationScoped
public class ProcessLivenessCheck implements DetailedHealthCheck {

    @Override
    public HealthFinding finding() {
        Runtime runtime = Runtime.getRuntime();
        return heap(runtime.totalMemory() - runtime.freeMemory(), runtime.maxMemory());
    }

    static HealthFinding heap(long usedBytes, long maxBytes) {
        return HealthFinding.named("process").detail("heapUsedMiB", usedBytes >> 20).detail("heapMaxMiB", maxBytes >> 20)
            .status(usedBytes < maxBytes * 0.95, "heap_nearly_full");
    }
}
