package io.wecominbox.devstack.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the CPU went in a JFR recording (JDK 17 has no {@code jfr view}): execution samples counted by their
 * top frame, and by the first frame of this application or of a named library area on the stack.
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
        }
        System.out.println("execution samples: " + samples);
        print("by area (innermost known frame)", areas, samples, top);
        print("top frame's package (first three parts)", packages, samples, top);
        print("top frames", topFrames, samples, top);
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
