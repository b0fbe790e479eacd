package io.wecominbox.pacing;

/**
 * How long a handler's events can wait for the CPU while the callbacks need it; the order in which the handlers
 * give way under load ({@link ConsumerPacing}).
 */
public enum Urgency {
    /** A deadline a customer sees (the welcome code's 20 s): never held back. */
    DEADLINE,
    /** Someone is waiting for it (a bot's reply): held back for a fraction of a second at most. */
    PROMPT,
    /** Nobody waits on it (records, archives): held back as long as the callbacks need the CPU, then catches up. */
    CATCH_UP
}
