package io.wecominbox.ops.health;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * One check's verdict in two views. Anyone may read /health (load balancers do), so its view is the status and,
 * when DOWN, a reason code from a fixed vocabulary: nothing that names a host, a port, a pool size or an
 * exception class. The details are for operators, behind the admin login ({@code GET /api/ops/health}).
 *
 * @param reason  why it is DOWN, a short code ({@code [a-z_]+}); null when UP
 * @param details what an operator needs to act, in insertion order; never a secret
 */
public record HealthFinding(String name, boolean up, String reason, Map<String, Object> details) {

    public HealthFinding {
        Objects.requireNonNull(name, "name");
        if (reason != null && !reason.matches("[a-z_]{1,40}")) {
            throw new IllegalArgumentException("a reason is a short code, not a message: " + reason);
        }
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /**
     * What /health, /health/ready and /health/live show: status, and the reason code when DOWN. Built with the
     * API's own constructor (MicroProfile Health 3+), so it needs no provider and is tested as it is served.
     */
    public HealthCheckResponse publicResponse() {
        return new HealthCheckResponse(name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                up || reason == null ? Optional.empty() : Optional.of(Map.of("reason", reason)));
    }

    /** Collects details, then says UP or DOWN (with its reason code). */
    public static final class Builder {
        private final String name;
        private final Map<String, Object> details = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder detail(String key, Object value) {
            details.put(key, value);
            return this;
        }

        public HealthFinding up() {
            return new HealthFinding(name, true, null, details);
        }

        public HealthFinding down(String reason) {
            return new HealthFinding(name, false, Objects.requireNonNull(reason, "reason"), details);
        }

        /** UP when {@code up}, else DOWN for {@code reasonIfDown}. */
        public HealthFinding status(boolean up, String reasonIfDown) {
            return up ? up() : down(reasonIfDown);
        }
    }
}
