package io.wecominbox.ops.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness is cheap on purpose: a database or broker outage must make us unready (no traffic), not
 * dead (a restart would not fix it). Down only when the JVM is nearly out of heap.
 */
@Liveness
@ApplicationScoped
public class ProcessLivenessCheck implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        Runtime runtime = Runtime.getRuntime();
        long used = runtime.totalMemory() - runtime.freeMemory();
        boolean heapOk = used < runtime.maxMemory() * 0.95;
        return HealthCheckResponse.named("process").status(heapOk).build();
    }
}
