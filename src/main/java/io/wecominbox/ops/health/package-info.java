/**
 * Health at /health (public, for load balancers). Readiness probes what accepting a callback needs: the
 * database ({@link io.wecominbox.ops.health.DatabaseReadinessCheck}) and the broker
 * ({@link io.wecominbox.ops.health.BrokerReadinessCheck}). Liveness stays cheap (heap only): an outage of a
 * dependency must make the node unready, not get it restarted.
 * <p>
 * Not yet: Redis. Its readiness check comes with the consumers' dedup hot tier (a PING with a short timeout;
 * when the hot tier can fall back to in-process, report UP with the fallback in the check's data instead of
 * taking the node out of the load balancer).
 */
package io.wecominbox.ops.health;
