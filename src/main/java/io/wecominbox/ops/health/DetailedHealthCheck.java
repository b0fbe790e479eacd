package io.wecominbox.ops.health;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * A health check whose full finding is for operators ({@link OpsHealthResource}) while the public endpoints get
 * only its status and reason code ({@link HealthFinding#publicResponse()}).
 */
public interface DetailedHealthCheck extends HealthCheck {

    /** The latest verdict with its details. */
    HealthFinding finding();

    @Override
    default HealthCheckResponse call() {
        return finding().publicResponse();
    }
}
