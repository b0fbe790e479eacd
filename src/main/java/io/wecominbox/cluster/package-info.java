/**
 * The deployment's nodes: this node's name ({@link io.wecominbox.cluster.NodeIdentity}, also its transaction
 * recovery identity and its metrics' node label), its heartbeat in {@code cluster_node}
 * ({@link io.wecominbox.cluster.NodeHeartbeat}, its figures from a {@link io.wecominbox.cluster.NodeFiguresSource}
 * that ops implements) and every node's last figures for the dashboard
 * ({@link io.wecominbox.cluster.ClusterNodes}). Work that must run on one node at a time coordinates in
 * PostgreSQL where it runs: the relay's row locks (SKIP LOCKED), the dedup cleanup's advisory lock, reconcile
 * runs' leases, the parked deliveries' unique parked_id.
 */
package io.wecominbox.cluster;
