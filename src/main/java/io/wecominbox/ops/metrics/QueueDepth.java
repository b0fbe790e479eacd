package io.wecominbox.ops.metrics;

/** One broker queue as the management API reported it. */
public record QueueDepth(String queue, String address, long messages, long consumers, long delivering) {

    /** Dead letters (DLQ, DLQ.<address>) and expired messages (ExpiryQueue, EXP.<address>). */
    public boolean deadLetter() {
        return queue.equals("DLQ") || queue.startsWith("DLQ.");
    }

    public boolean expiry() {
        return queue.equals("ExpiryQueue") || queue.startsWith("EXP.");
    }
}
