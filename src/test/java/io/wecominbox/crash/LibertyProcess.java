package io.wecominbox.crash;

import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The Liberty server that `mvn verify` created, started and killed the way an operator (or the OOM
 * killer) would: `server start`, `kill -9`. Installs the built WAR through a config drop-in.
 */
final class LibertyProcess {

    private static final String SERVER = System.getProperty("wecom.liberty.server", "wecomInboxTest");

    private final Path wlp = StackEnv.buildDir().resolve("liberty/wlp");
    private final Path serverDir = wlp.resolve("usr/servers/" + SERVER);
    private final Path appDropIn = serverDir.resolve("configDropins/overrides/crash-test-app.xml");

    void installApplication() throws IOException {
        Path war = StackEnv.buildDir().resolve("wecom-inbox.war");
        Files.createDirectories(appDropIn.getParent());
        Files.writeString(appDropIn, """
                <server>
                  <webApplication id="wecom-inbox" name="wecom-inbox" location="%s" contextRoot="/"/>
                </server>
                """.formatted(war));
    }

    void removeApplication() throws IOException {
        Files.deleteIfExists(appDropIn);
    }

    void start() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "start", SERVER);
        boolean ready = Poll.until(Duration.ofSeconds(180), () -> {
            HttpResponse<String> answer = Http.get("/health/ready");
            return answer != null && answer.statusCode() == 200;
        });
        if (!ready) {
            throw new IllegalStateException("Liberty not ready; see " + serverDir.resolve("logs/messages.log"));
        }
    }

    void stop() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "stop", SERVER);
    }

    /** kill -9: no shutdown hook, no transaction completion; in-flight work stays as the kill found it. */
    void kill() throws Exception {
        long pid = Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + SERVER + ".pid")).trim());
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        run("kill", "-9", Long.toString(pid));
        process.onExit().get(30, TimeUnit.SECONDS);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " timed out");
        }
    }
}
