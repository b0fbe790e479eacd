package io.wecominbox.ops.probe;

/** What became of one probe: receipts is 1 when the path works, 0 while in flight, above 1 never. */
public record ProbeStatus(long probeId, String label, String sentAt, int receipts, String firstReceivedAt) {
}
