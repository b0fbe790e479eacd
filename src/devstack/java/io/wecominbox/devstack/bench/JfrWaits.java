package io.wecominbox.devstack.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where threads waited in a JFR recording (settings=profile records parks, monitor waits and enters, socket
 * reads and writes over 10-20 ms, with their stacks): the total time waited, by pipeline stage (as
 * {@link JfrHotMethods} names them), by kind of wait, and by the application frame that waited. CPU samples say
 * what is busy; this says what a slow answer was waiting for. {@code java ... JfrWaits recording.jfr [top]}.
 */
public final class JfrWaits {

    private static final Set<String> WAITS = Set.of("jdk.ThreadPark", "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait",
            "jdk.SocketRead", "jdk.SocketWrite", "jdk.ThreadSleep");

    private JfrWaits() {
    }

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Map<String, Long> byStage = new HashMap<>();
        Map<String, Long> byKind = new HashMap<>();
        Map<String, Long> byWaiter = new HashMap<>();
        long total = 0;
        long minThreads = Long.MAX_VALUE;
        long maxThreads = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String kind = event.getEventType().getName();
            if (kind.equals("jdk.JavaThreadStatistics")) {
                // a pool that grows slowly shows as few threads while requests queue: no wait is recorded for a
                // request that has no thread yet
                minThreads = Math.min(minThreads, event.getLong("activeCount"));
                maxThreads = Math.max(maxThreads, event.getLong("activeCount"));
                continue;
            }
            if (!WAITS.contains(kind) || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            String stage = JfrHotMethods.stage(frames);
            if (stage.startsWith("no application frame")) {
                continue; // idle pool threads waiting for work: not a wait anyone is answered after
            }
            long nanos = event.getDuration().toNanos();
            total += nanos;
            byStage.merge(stage, nanos, Long::sum);
            byKind.merge(stage + " / " + kind.substring(4), nanos, Long::sum);
            byWaiter.merge(stage + " / " + waiter(frames), nanos, Long::sum);
        }
        System.out.printf("waits of application threads: %.1f s in all (parks, monitors, sockets, sleeps over"
                + " JFR's thresholds); live threads %d to %d%n", total / 1e9,
                minThreads == Long.MAX_VALUE ? 0 : minThreads, maxThreads);
        print("by stage", byStage, total, top);
        print("by stage and kind", byKind, total, top);
        print("by stage and the application frame that waited", byWaiter, total, top);
    }

    /** The innermost frame of this application: the call that waited. */
    private static String waiter(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("io.wecominbox.")) {
                return type.substring("io.wecominbox.".length()) + "." + frame.getMethod().getName();
            }
        }
        return "?";
    }

    private static void print(String title, Map<String, Long> nanos, long total, int top) {
        System.out.println();
        System.out.println("| " + title + " | waited s | share |\n|---|---|---|");
        nanos.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
            .forEach(e -> System.out.printf("| %s | %.1f | %.1f %% |%n", e.getKey(),
                Duration.ofNanos(e.getValue()).toMillis() / 1000.0, total == 0 ? 0 : 100.0 * e.getValue() / total));
    }
}
