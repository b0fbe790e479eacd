package io.wecominbox.handler;

/**
 * Whether somebody waits for a handler's effect, and so the priority its consumer threads run at: on a machine
 * with no core to spare, the callback URL and the handlers somebody waits for go first, and the others catch up
 * after the burst. A Java priority becomes the thread's OS nice value only through the JVM options in
 * {@code liberty/jvm.options}; {@link ConsumerThreadPriority} checks at the first delivery that it does, and
 * lowers nothing when it does not.
 */
public enum Urgency {

    /**
     * Somebody waits: the welcome (its code is valid 20 s), the bot's reply. The callback URL's own priority
     * (nice 0). The two share Liberty's executor and the WeCom client's threads, and a thread inherits the
     * priority of the thread that starts it, so there is no third level between them and the callback URL.
     */
    PROMPT(Thread.NORM_PRIORITY),

    /** Nobody waits: it catches up after a burst (nice 10). */
    CATCH_UP(Thread.MIN_PRIORITY);

    private final int javaPriority;

    Urgency(int javaPriority) {
        this.javaPriority = javaPriority;
    }

    /** The {@link Thread#setPriority} value of the handler's consumer threads. */
    public int javaPriority() {
        return javaPriority;
    }
}
