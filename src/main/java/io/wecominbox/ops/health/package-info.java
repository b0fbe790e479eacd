/**
 * Health at /health (public, for load balancers): each check's UP/DOWN and, when DOWN, a reason code from a fixed
 * vocabulary; its details (hosts, errors, pool sizes, backlogs) only at {@code GET /api/ops/health} for the admin
 * role ({@link io.wecominbox.ops.health.OpsHealthResource}). Every check is a
 * {@link io.wecominbox.ops.health.DetailedHealthCheck} producing a {@link io.wecominbox.ops.health.HealthFinding}.
 * A load balancer routes on the readiness check {@code ack-path}
 * ({@link io.wecominbox.ops.health.AckPathReadinessCheck}): whether this node can acknowledge a callback now.
 * Readiness as a whole probes the whole pipeline: the
 * database ({@link io.wecominbox.ops.health.DatabaseReadinessCheck}) and the broker
 * ({@link io.wecominbox.ops.health.BrokerReadinessCheck}), and that the broker routes every handler its events
 * ({@link io.wecominbox.ops.health.HandlerRoutesReadinessCheck}: queue and diverts, read from its management API).
 * Liveness stays cheap (heap only): an outage of a dependency must make the node unready, not get it restarted.
 * Redis ({@link io.wecominbox.ops.health.RedisReadinessCheck}) counts only while a handler's policy REJECTs
 * without it; otherwise a dead Redis is reported in the check's details and the node stays ready.
 */
package io.wecominbox.ops.health;
