package io.wecominbox.cluster;

/** What a node reports of its last minute in its heartbeat (from a {@link NodeFiguresSource}). */
public record NodeFigures(long accepted, long failed, Double ackP95Ms, Double ackMaxMs, long relayBacklog) {
}
