package io.wecominbox.testsupport;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The Liberty server that `mvn verify` created, started and killed the way an operator (or the OOM
 * killer) would: `server start`, `kill -9`; or frozen for a while (SIGSTOP / SIGCONT), as a long GC pause or a
 * stalled VM freezes it. Installs the test deployment (the built WAR + test hooks) through a config drop-in. For the process-level tests that
 * run after Arquillian's server has stopped (failsafe execution crash-tests).
 */
public final class LibertyProcess {

    private static final String SERVER = System.getProperty("wecom.liberty.server", "wecomInboxTest");

    private final Path wlp = StackEnv.buildDir().resolve("liberty/wlp");
    private final Path serverDir = wlp.resolve("usr/servers/" + SERVER);
    private final Path appDropIn = serverDir.resolve("configDropins/overrides/crash-test-app.xml");

    public void installApplication() throws IOException {
        Path war = Deployments.applicationFile();
        Files.createDirectories(appDropIn.getParent());
        Files.writeString(appDropIn, """
                <server>
                  <webApplication id="wecom-inbox" name="wecom-inbox" location="%s" contextRoot="/"/>
                </server>
                """.formatted(war));
    }

    public void removeApplication() throws IOException {
        Files.deleteIfExists(appDropIn);
    }

    public void start() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "start", SERVER);
        boolean ready = Poll.until(Duration.ofSeconds(180), () -> {
            HttpResponse<String> answer = Http.get("/health/ready");
            return answer != null && answer.statusCode() == 200;
        });
        if (!ready) {
            throw new IllegalStateException("Liberty not ready; see " + serverDir.resolve("logs/messages.log"));
        }
    }

    public void stop() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "stop", SERVER);
    }

    /** kill -9: no shutdown hook, no transaction completion; in-flight work stays as the kill found it. */
    public void kill() throws Exception {
        long pid = pid();
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        run("kill", "-9", Long.toString(pid));
        process.onExit().get(30, TimeUnit.SECONDS);
    }

    /**
     * Freezes the whole JVM (SIGSTOP) for the given time, then lets it go on (SIGCONT): requests that arrive
     * or are in flight meanwhile are answered late but completely, as after a long GC pause.
     */
    public void freeze(Duration duration) throws Exception {
        String pid = Long.toString(pid());
        run("kill", "-STOP", pid);
        try {
            Poll.sleep(duration.toMillis());
        } finally {
            run("kill", "-CONT", pid);
        }
    }

    /**
     * kill -9 inside a two-phase commit if {@code inDoubt} shows one within {@code within}, else anyway; true
     * when it did. A prepared branch lives a few milliseconds, shorter than it takes to see it and then kill:
     * so the server is frozen first (SIGSTOP), looked at, and killed frozen when a branch is prepared,
     * otherwise let go for a moment.
     */
    public boolean killInDoubt(Duration within, BooleanSupplier inDoubt) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        boolean found = false;
        while (!found && System.nanoTime() < deadline) {
            suspend();
            found = inDoubt.getAsBoolean();
            if (!found) {
                resume();
                Poll.sleep(ThreadLocalRandom.current().nextInt(20, 100));
            }
        }
        kill(); // SIGKILL also ends a stopped process
        return found;
    }

    /** SIGSTOP: nothing in the JVM moves until {@link #resume()} (or a kill), not even a commit in progress. */
    public void suspend() throws Exception {
        run("kill", "-STOP", Long.toString(pid()));
    }

    public void resume() throws Exception {
        run("kill", "-CONT", Long.toString(pid()));
    }

    private long pid() throws IOException {
        return Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + SERVER + ".pid")).trim());
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = ChildProcess.sharingOutput(command).start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " timed out");
        }
    }
}
