package io.wecominbox.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The Liberty server that `mvn verify` created, started and killed the way an operator (or the OOM
 * killer) would: `server start`, `kill -9`; or frozen for a while (SIGSTOP / SIGCONT), as a long GC pause or a
 * stalled VM freezes it. Installs the test deployment (the built WAR + test hooks) through a config drop-in. For the process-level tests that
 * run after Arquillian's server has stopped (failsafe execution crash-tests). One instance per server: the
 * build's (node 1) or a further node that src/stack/nodes.sh made beside it ({@link #node(int)}).
 */
public final class LibertyProcess {

    private static final String SERVER = System.getProperty("wecom.liberty.server", "wecomInboxTest");

    private final Path wlp = StackEnv.buildDir().resolve("liberty/wlp");
    private final String server;
    private final int httpPort;
    private final Path serverDir;
    private final Path appDropIn;

    private volatile Instant killedAt;

    /** The build's server (node 1) on the tests' HTTP port. */
    public LibertyProcess() {
        this(SERVER, Integer.parseInt(System.getProperty("wecom.http.port", StackEnv.get("HTTP_PORT", "9080"))));
    }

    public LibertyProcess(String server, int httpPort) {
        this.server = server;
        this.httpPort = httpPort;
        this.serverDir = wlp.resolve("usr/servers/" + server);
        this.appDropIn = serverDir.resolve("configDropins/overrides/crash-test-app.xml");
    }

    /**
     * Node {@code n} of the stack as src/stack/nodes.sh names and numbers it: server {@code <build's server>n}
     * on NODE<n>_HTTP_PORT, by default the tests' HTTP port + n - 1 (node 1 is the build's server itself).
     */
    public static LibertyProcess node(int n) {
        LibertyProcess first = new LibertyProcess();
        if (n == 1) {
            return first;
        }
        String port = System.getenv("NODE" + n + "_HTTP_PORT");
        return new LibertyProcess(SERVER + n, port != null ? Integer.parseInt(port) : first.httpPort + n - 1);
    }

    /** When the last {@link #kill()} sent SIGKILL (the process may be seen gone a little later). */
    public Instant killedAt() {
        return killedAt;
    }

    public String serverName() {
        return server;
    }

    /** The server's directory (its logs/messages.log, logs/ffdc, server.env). */
    public Path serverDir() {
        return serverDir;
    }

    /**
     * Lines of the server's messages.log files (the current one and those rolled over) that contain
     * {@code text}, e.g. a message id; 0 before the server wrote any.
     */
    public long logLinesContaining(String text) throws IOException {
        Path logs = serverDir.resolve("logs");
        if (!Files.isDirectory(logs)) {
            return 0;
        }
        long count = 0;
        try (var files = Files.list(logs)) {
            for (Path log : files.filter(f -> f.getFileName().toString().startsWith("messages")).toList()) {
                try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
                    count += lines.filter(l -> l.contains(text)).count();
                }
            }
        }
        return count;
    }

    public int httpPort() {
        return httpPort;
    }

    /** This node's readiness, asked directly (not through a load balancer); null when it does not answer. */
    public HttpResponse<String> readiness() {
        return Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health/ready")).GET());
    }

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
        launch();
        awaitReady();
    }

    /** `server start`: returns once the JVM runs, before the application is ready (see {@link #awaitReady()}). */
    public void launch() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "start", server);
    }

    public void awaitReady() {
        boolean ready = Poll.until(Duration.ofSeconds(180), () -> {
            HttpResponse<String> answer = readiness();
            return answer != null && answer.statusCode() == 200;
        });
        if (!ready) {
            throw new IllegalStateException(server + " not ready; see " + serverDir.resolve("logs/messages.log"));
        }
    }

    public void stop() throws IOException, InterruptedException {
        run(wlp.resolve("bin/server").toString(), "stop", server);
    }

    /** kill -9: no shutdown hook, no transaction completion; in-flight work stays as the kill found it. */
    public void kill() throws Exception {
        long pid = pid();
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        run("kill", "-9", Long.toString(pid));
        killedAt = Instant.now();
        // not onExit(): for a process that is not our child it polls with a growing back-off, and returned
        // seconds after the death (a failover test timed "the kill" that late)
        if (!Poll.until(Duration.ofSeconds(30), () -> !process.isAlive())) {
            throw new IllegalStateException(server + " (pid " + pid + ") still alive 30 s after kill -9");
        }
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
     * otherwise let go for a moment. Frozen, the server cannot move on, but PostgreSQL can still finish a
     * COMMIT PREPARED the server sent just before the freeze: so {@code inDoubt} must still hold after
     * {@link #STEADY} frozen (a CI run killed on a branch that was committing and left none in doubt).
     */
    public boolean killInDoubt(Duration within, BooleanSupplier inDoubt) throws Exception {
        return killFrozenWhen(within, () -> inDoubt.getAsBoolean() && stillHoldsFrozen(inDoubt));
    }

    /** Long enough for a commit already at the database to land; nothing of the frozen server's moves meanwhile. */
    static final Duration STEADY = Duration.ofMillis(300);

    private static boolean stillHoldsFrozen(BooleanSupplier condition) {
        Poll.sleep(STEADY.toMillis());
        return condition.getAsBoolean();
    }

    /**
     * kill -9 at the first moment {@code condition} holds of the server frozen (SIGSTOP), looked at within
     * {@code within}, else anyway at the end; true when it held. Frozen, the server cannot move on between the
     * look and the kill: what the condition saw is what the kill leaves (but for a commit PostgreSQL already
     * received, which a condition that must hold for a while rules out). Between looks the server runs for
     * 20-100 ms.
     */
    public boolean killFrozenWhen(Duration within, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        boolean held = false;
        while (!held && System.nanoTime() < deadline) {
            suspend();
            try {
                held = condition.getAsBoolean();
            } catch (RuntimeException e) {
                resume(); // never leave a frozen server behind a failed look
                throw e;
            }
            if (!held) {
                resume();
                Poll.sleep(ThreadLocalRandom.current().nextInt(20, 100));
            }
        }
        kill(); // SIGKILL also ends a stopped process
        return held;
    }

    /** SIGSTOP: nothing in the JVM moves until {@link #resume()} (or a kill), not even a commit in progress. */
    public void suspend() throws Exception {
        run("kill", "-STOP", Long.toString(pid()));
    }

    public void resume() throws Exception {
        run("kill", "-CONT", Long.toString(pid()));
    }

    private long pid() throws IOException {
        return Long.parseLong(Files.readString(wlp.resolve("usr/servers/.pid/" + server + ".pid")).trim());
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = ChildProcess.sharingOutput(command).start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " timed out");
        }
    }
}
