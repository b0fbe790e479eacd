package io.wecominbox.handler;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Puts the thread that delivers a handler's messages at its {@link Urgency}, so that the consumers of what can
 * catch up yield the cores to the callback URL and the welcome under overload, and take them all when idle.
 *
 * <p>Lowering is one way for a process that is not root: the OS lets it raise no thread's priority again, and a
 * thread inherits the priority of the thread that starts it. So a thread is lowered only where it stays with its
 * handler (each handler's activation spec has a thread pool of its own, useGlobalPools="false", in the generated
 * drop-in), and nothing is lowered unless this JVM both passes priorities to the OS and can raise them back: a
 * probe thread at the first delivery tells, and the log says which. The gauge wecom.handler.thread.nice shows the
 * nice value each handler's last newly placed thread got from the OS.
 */
@ApplicationScoped
public class ConsumerThreadPriority {

    private static final Logger LOG = Logger.getLogger(ConsumerThreadPriority.class.getName());
    static final String NICE_GAUGE = "wecom.handler.thread.nice";
    private static final Path THREAD_STAT = Path.of("/proc/thread-self/stat");
    static final int UNKNOWN = Integer.MIN_VALUE;

    /** The handler whose urgency this thread runs at (a thread of a handler's own pool: set once). */
    private static final ThreadLocal<String> PLACED_FOR = new ThreadLocal<>();

    private final Map<String, AtomicInteger> nice = new ConcurrentHashMap<>();
    private volatile boolean osHonoursPriorities;

    @Inject
    MetricRegistry metrics;

    @PostConstruct
    void init() {
        // on the thread that first needs this bean: a consumer thread before anything was lowered
        osHonoursPriorities = probe();
    }

    /** Runs this thread at the handler's urgency: a thread-local read per delivery, a system call once a thread. */
    public void place(DeclaredHandler handler) {
        if (handler.name().equals(PLACED_FOR.get())) {
            return;
        }
        PLACED_FOR.set(handler.name());
        if (osHonoursPriorities) {
            Thread.currentThread().setPriority(handler.urgency().javaPriority());
        }
        currentNice().ifPresent(n -> nice.computeIfAbsent(handler.name(), name -> {
            AtomicInteger value = new AtomicInteger();
            metrics.gauge(NICE_GAUGE, value, AtomicInteger::get, new Tag("handler", name));
            return value;
        }).set(n));
    }

    /**
     * True when a thread set to the lowest Java priority gets a higher nice value and, set back, its nice value
     * again: the JVM maps priorities to the OS (liberty/jvm.options) and may raise them (root, or RLIMIT_NICE).
     */
    private static boolean probe() {
        int[] seen = new int[] {UNKNOWN, UNKNOWN, UNKNOWN};
        Thread probe = new Thread(() -> {
            seen[0] = currentNice().orElse(UNKNOWN);
            Thread.currentThread().setPriority(Urgency.CATCH_UP.javaPriority());
            seen[1] = currentNice().orElse(UNKNOWN);
            Thread.currentThread().setPriority(Urgency.PROMPT.javaPriority());
            seen[2] = currentNice().orElse(UNKNOWN);
        }, "wecom-priority-probe");
        probe.start();
        try {
            probe.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        Optional<String> refused = whyNot(seen[0], seen[1], seen[2]);
        if (refused.isPresent()) {
            LOG.warning("consumer priorities: " + refused.get()
                + "; every consumer runs at the callback URL's priority");
            return false;
        }
        LOG.info("consumer priorities: handlers that catch up run at nice " + seen[1] + ", the callback URL and the"
            + " handlers somebody waits for at nice " + seen[0]);
        return true;
    }

    /**
     * Why consumers are not to be lowered, given a probe thread's nice value as started, at the lowest Java
     * priority, and set back to normal ({@link #UNKNOWN}: not readable); empty when they may be.
     */
    static Optional<String> whyNot(int normal, int lowered, int back) {
        if (normal == UNKNOWN || lowered == UNKNOWN || back == UNKNOWN) {
            return Optional.of("this OS shows no thread's nice value (no /proc/thread-self/stat)");
        }
        if (lowered <= normal) {
            return Optional.of("this JVM does not pass Java priorities to the OS (nice " + lowered + " for the"
                + " lowest). liberty/jvm.options has the options (-XX:ThreadPriorityPolicy=1 and the priority map),"
                + " docs/deploy.md says why");
        }
        if (back != normal) {
            return Optional.of("a thread lowered to nice " + lowered + " and set back got nice " + back + ", not the "
                + normal + " it started at: this process may not raise a priority again (not root, no RLIMIT_NICE that"
                + " allows it), or the server itself runs niced. Nothing is lowered");
        }
        return Optional.empty();
    }

    /** This thread's nice value as the OS has it, from Linux's /proc; empty elsewhere. */
    static OptionalInt currentNice() {
        try {
            return niceOf(Files.readString(THREAD_STAT));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /** Field 19 of proc(5)'s stat line, counted after the command name, which may itself hold spaces and ')'. */
    static OptionalInt niceOf(String statLine) {
        int end = statLine.lastIndexOf(')');
        if (end < 0) {
            return OptionalInt.empty();
        }
        String[] fields = statLine.substring(end + 1).trim().split(" ");
        // fields[0] is field 3 (state): nice, field 19, is fields[16]
        return fields.length > 16 ? OptionalInt.of(Integer.parseInt(fields[16])) : OptionalInt.empty();
    }
}
