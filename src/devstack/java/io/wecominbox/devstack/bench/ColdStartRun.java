package io.wecominbox.devstack.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The first seconds after a start: stops and starts the server (a shell command the script gives), polls
 * /health/ready every 20 ms, and from the first ready answer sends callbacks at a fixed rate (open loop, through
 * a fresh HTTP client: the old connections died with the server). Callbacks are sealed before the restart.
 */
final class ColdStartRun {

    private static final Duration READY_LIMIT = Duration.ofSeconds(300);

    /** The open-loop result from the first ready moment, and how long stop and start-to-ready took. */
    record Outcome(PhaseResult result, double stopSeconds, double startToReadySeconds,
                   List<LatencySamples.Summary> windows) {
    }

    /** The latencies are also reported per window of this length after the first ready answer. */
    static final long WINDOW_SECONDS = 5;

    private final String baseUrl;
    private final String restartCommand;
    private final Optional<Path> libertyPidFile;

    ColdStartRun(String baseUrl, String restartCommand, Optional<Path> libertyPidFile) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.restartCommand = restartCommand;
        this.libertyPidFile = libertyPidFile;
    }

    Outcome run(double rate, List<CallbackFeed.Callback> callbacks, CpuMeter cpu) throws IOException,
            InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long begin = System.nanoTime();
        // the script's command prints "STARTING" between stop and start, so stop and start are timed apart
        Process restart = new ProcessBuilder("bash", "-c", restartCommand).redirectErrorStream(true).start();
        long startedAt = 0;
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(restart.getInputStream()))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals("STARTING") && startedAt == 0) {
                    startedAt = System.nanoTime();
                } else {
                    IngestBenchMain.log("  restart: %s", line);
                }
            }
        }
        int exit = restart.waitFor();
        if (exit != 0) {
            throw new IOException("the restart command failed (exit " + exit + "): " + restartCommand);
        }
        if (startedAt == 0) {
            startedAt = begin;
        }
        long deadline = System.nanoTime() + READY_LIMIT.toNanos();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUrl + "/health/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        while (!isReady(http, ready)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("not ready " + READY_LIMIT.toSeconds() + " s after the restart");
            }
            Thread.sleep(20);
        }
        long readyAt = System.nanoTime();
        CpuMeter restarted = libertyPid().map(pid -> cpu.withRoot("liberty", pid)).orElse(cpu);
        PhaseResult result;
        List<LatencySamples> windows = new java.util.ArrayList<>();
        long count = Math.max(1, (long) Math.ceil(callbacks.size() / rate / WINDOW_SECONDS));
        for (int i = 0; i < count; i++) {
            windows.add(new LatencySamples());
        }
        try (IngestTarget fresh = new IngestTarget(baseUrl)) {
            result = new OpenLoopStep(fresh).run("cold start " + Math.round(rate) + "/s", rate, callbacks, restarted,
                    windows, WINDOW_SECONDS * 1_000_000_000L);
        }
        return new Outcome(result, (startedAt - begin) / 1e9, (readyAt - startedAt) / 1e9,
                windows.stream().map(LatencySamples::summary).toList());
    }

    private Optional<Long> libertyPid() {
        try {
            return libertyPidFile.isPresent() ? Optional.of(Long.parseLong(Files.readString(libertyPidFile.get()).trim()))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static boolean isReady(HttpClient http, HttpRequest ready) throws InterruptedException {
        try {
            return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }
}
