package io.wecominbox.devstack.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the CPU went in a JFR recording (JDK 17 has no {@code jfr view}): execution samples counted by the
 * pipeline stage whose code is outermost on the stack (the callback request, the group commit, the relay, each
 * handler, ...), by their top frame, and by the first frame of this application or of a named library area.
 * {@code java ... JfrHotMethods recording.jfr [top]}.
 */
public final class JfrHotMethods {

    private static final String[][] AREAS = {
        {"io.wecominbox.", "app"}, {"org.postgresql.", "pgjdbc"}, {"org.apache.activemq.artemis.", "artemis client/RA"},
        {"com.ibm.tx.", "transaction manager"}, {"com.ibm.ws.tx.", "transaction manager"},
        {"com.ibm.ejs.j2c.", "connection pools (J2C)"}, {"com.ibm.ws.jca.", "connection pools (J2C)"},
        {"com.ibm.ws.rsadapter.", "JDBC wrapper"}, {"org.jboss.weld.", "CDI"}, {"jdk.internal.net.http.", "HTTP client"},
        {"io.netty.", "netty"}, {"com.ibm.ws.logging.", "logging"}, {"java.util.logging.", "logging"},
        {"io.lettuce.", "redis"}, {"redis.clients.", "redis"}, {"com.ibm.ejs.container.", "EJB container"}
    };

    private JfrHotMethods() {
    }

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Map<String, Integer> topFrames = new HashMap<>();
        Map<String, Integer> areas = new HashMap<>();
        Map<String, Integer> packages = new HashMap<>();
        Map<String, Integer> stages = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            var frames = event.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            topFrames.merge(name(frames.get(0)), 1, Integer::sum);
            packages.merge(packageOf(frames.get(0)), 1, Integer::sum);
            areas.merge(area(frames), 1, Integer::sum);
            stages.merge(stage(frames), 1, Integer::sum);
        }
        System.out.println("execution samples: " + samples);
        print("by stage (outermost application frame)", stages, samples, top);
        print("by area (innermost known frame)", areas, samples, top);
        print("top frame's package (first three parts)", packages, samples, top);
        print("top frames", topFrames, samples, top);
    }

    /**
     * The stage a sample worked for: the outermost frame of this application names it, since a stage's own loop
     * or entry point (the callback resource, the writer, the relay, a handler's consumer) calls everything else.
     */
    static String stage(java.util.List<RecordedFrame> frames) {
        String filter = null;
        for (int i = frames.size() - 1; i >= 0; i--) {
            String type = frames.get(i).getMethod().getType().getName();
            if (!type.startsWith("io.wecominbox.")) {
                continue;
            }
            // a servlet filter wraps the request it passes on: the stage is what it called, if anything
            if (type.endsWith("Filter") || type.contains("Filter$")) {
                filter = filter == null ? type : filter;
                continue;
            }
            return stageOf(type);
        }
        return filter != null ? stageOf(filter) : "no application frame (Liberty, JDK, GC and compiler threads)";
    }

    public static String stageOf(String type) {
        String rest = type.substring("io.wecominbox.".length());
        if (rest.startsWith("ingest.GroupCommitWriter")) {
            return "group commit";
        }
        if (rest.startsWith("ingest.ParkedDeliveries")) {
            return "parking and draining";
        }
        if (rest.startsWith("ingest.")) {
            return "callback request (verify, decrypt, parse, hand over)";
        }
        if (rest.startsWith("handler.")) {
            String[] parts = rest.split("\\.");
            return parts.length > 2 && Character.isLowerCase(parts[1].charAt(0))
                ? "handler " + parts[1] : "handlers (shared runner)";
        }
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static String area(java.util.List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (String[] area : AREAS) {
                if (type.startsWith(area[0])) {
                    return area[1];
                }
            }
        }
        return "other (JDK, Liberty kernel)";
    }

    private static String packageOf(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        String[] parts = type.split("\\.");
        return String.join(".", java.util.Arrays.copyOf(parts, Math.min(3, parts.length - 1)));
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static void print(String title, Map<String, Integer> counts, int samples, int top) {
        System.out.println("| " + title + " | share |\n|---|---|");
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top)
            .forEach(e -> System.out.printf("| %s | %.1f %% |%n", e.getKey(), 100.0 * e.getValue() / samples));
    }
}
