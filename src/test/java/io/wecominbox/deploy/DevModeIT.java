package io.wecominbox.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The README's `src/stack/stack.sh dev`: `mvn liberty:dev` against services of its own (a broker, a database
 * and a role in the machine's PostgreSQL, its own ports and server name, away from the test stack), then a
 * change to a handler's source is recompiled and redeployed, and q stops it all. Runs in the deploy-check
 * Failsafe execution, after the suites that own the test server.
 */
@Tag("deploy")
class DevModeIT {

    private static final int HTTP_PORT = 9087;
    private static final String SERVER = "wecomDevCheck";
    private static final Path HANDLER_SOURCE =
            StackEnv.projectDir().resolve("src/main/java/io/wecominbox/handler/crm/CrmHandler.java");
    private static final String UPDATED = "CWWKZ0003I"; // "The application wecom-inbox updated in ..."

    @Test
    void devModeStartsTheAppAndRedeploysAChangedHandlerUntilQStopsIt() throws Exception {
        Path buildDir = StackEnv.buildDir();
        ProcessBuilder builder = new ProcessBuilder("bash", StackEnv.stackScript("stack.sh").toString(), "dev",
                "--no-demo");
        // to a file: dev mode's console written into the test JVM's own output would corrupt Failsafe's channel
        Path output = buildDir.resolve("dev-check/stack-dev.log");
        Files.createDirectories(output.getParent());
        builder.redirectErrorStream(true).redirectOutput(output.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("WECOM_") || name.equals("STACK_FRESH"));
        env.putAll(Map.of("WECOM_BUILD_DIR", buildDir.toString(),
                "STACK_DIR", buildDir.resolve("dev-check/stack").toString(),
                "LIBERTY_SERVER", SERVER, "HTTP_PORT", String.valueOf(HTTP_PORT), "HTTPS_PORT", "9447",
                "BROKER_PORT", "61626", "ARTEMIS_CONSOLE_PORT", "8171", "SIMULATOR_API_PORT", "9097",
                "DB_NAME", "wecom_dev_check", "DB_USER", "wecom_dev"));
        Path log = buildDir.resolve("liberty/wlp/usr/servers/" + SERVER + "/logs/messages.log");
        Process dev = builder.start();
        String original = Files.readString(HANDLER_SOURCE);
        try (OutputStream keys = dev.getOutputStream()) {
            assertTrue(Poll.until(Duration.ofMinutes(8), () -> !dev.isAlive() || ready()),
                    "the app answers /health/ready under dev mode");
            assertTrue(dev.isAlive(), "stack.sh dev is still running once the app is ready");
            // the app answers before dev mode registers its file watchers, and a change saved before that is
            // never seen (ci.common's DevUtil registers them after the server start): wait for the watch itself
            String handlerDirectory = inodeOf(HANDLER_SOURCE.getParent());
            assertTrue(Poll.until(Duration.ofMinutes(2), () -> dev.descendants()
                            .anyMatch(process -> watches(process.pid(), handlerDirectory))),
                    "dev mode watches " + HANDLER_SOURCE.getParent());

            long updatesBefore = linesContaining(log, UPDATED);
            Files.writeString(HANDLER_SOURCE, original + "// DevModeIT: a change dev mode must pick up\n");
            try {
                assertTrue(Poll.until(Duration.ofMinutes(3), () -> linesContaining(log, UPDATED) > updatesBefore),
                        "dev mode recompiled the changed handler and updated the application");
            } finally {
                Files.writeString(HANDLER_SOURCE, original);
            }
            assertTrue(Poll.until(Duration.ofMinutes(2), DevModeIT::ready), "ready again after the update");

            keys.write("q\n".getBytes(StandardCharsets.US_ASCII));
            keys.flush();
            assertTrue(dev.waitFor(4, TimeUnit.MINUTES), "q stops dev mode, the server and the services");
            assertEquals(0, dev.exitValue(), "stack.sh dev exit status");
            assertTrue(Poll.until(Duration.ofSeconds(30), () -> !ready()), "the server is down after q");
        } catch (AssertionError | Exception failure) {
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            System.out.println("stack.sh dev said (last 80 lines of " + output + "):");
            lines.subList(Math.max(0, lines.size() - 80), lines.size()).forEach(System.out::println);
            throw failure;
        } finally {
            if (!Files.readString(HANDLER_SOURCE).equals(original)) {
                Files.writeString(HANDLER_SOURCE, original);
            }
            if (dev.isAlive()) {
                dev.descendants().forEach(ProcessHandle::destroy);
                dev.destroy();
                dev.waitFor(60, TimeUnit.SECONDS);
                ProcessBuilder stop = new ProcessBuilder("bash", StackEnv.stackScript("stack.sh").toString(),
                        "services-stop").inheritIO();
                stop.environment().putAll(env);
                stop.start().waitFor(60, TimeUnit.SECONDS);
            }
        }
    }

    private static boolean ready() {
        try {
            HttpResponse<Void> answer = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP_PORT + "/health/ready"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
            return answer.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A directory's inode as /proc/PID/fdinfo writes it (hex). */
    private static String inodeOf(Path directory) throws IOException {
        return Long.toHexString((Long) Files.getAttribute(directory, "unix:ino"));
    }

    /**
     * Whether the process (the Maven JVM that runs liberty:dev, under stack.sh dev) holds an inotify watch on the
     * inode: the JDK's WatchService on Linux is inotify, and /proc/PID/fdinfo lists each watch's inode.
     */
    private static boolean watches(long pid, String inode) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fdinfo"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readAllLines(fd).stream()
                            .anyMatch(line -> line.startsWith("inotify ") && line.contains(" ino:" + inode + " "));
                } catch (IOException e) {
                    return false; // the descriptor closed meanwhile
                }
            });
        } catch (IOException e) {
            return false; // the process ended meanwhile
        }
    }

    private static long linesContaining(Path log, String text) {
        try {
            if (!Files.exists(log)) {
                return 0;
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.stream().filter(l -> l.contains(text)).count();
        } catch (IOException e) {
            return 0;
        }
    }
}
