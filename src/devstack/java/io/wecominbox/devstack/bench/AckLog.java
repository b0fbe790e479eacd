package io.wecominbox.devstack.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * Every first attempt of the open-loop steps, one CSV line each: the step's rate, the attempt's due instant (UTC)
 * and its ACK latency in ms, blank when no 200 "success" came in time. The percentiles say how slow the tail is;
 * this says when, so that a slow second can be laid beside Liberty's GC log and PostgreSQL's log, whose lines
 * carry the same clock. Thread-safe; buffered, so the file is whole once {@link #close()} returned.
 */
final class AckLog implements AutoCloseable {

    static final String HEADER = "step_rate,due_utc,ack_ms";

    private final BufferedWriter out;
    /** Wall-clock nanoseconds minus System.nanoTime(), taken once: due instants are nanoTime values. */
    private final long wallOffsetNanos;
    private boolean closed;

    AckLog(Path file) {
        try {
            out = Files.newBufferedWriter(file);
            out.write(HEADER);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ACK log " + file, e);
        }
        Instant now = Instant.now();
        wallOffsetNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano() - System.nanoTime();
    }

    /** {@code latencyNanos} negative: not answered in time. */
    synchronized void firstAttempt(double rate, long dueNanos, long latencyNanos) {
        if (closed) {
            return; // an answer after the run ended belongs to no step
        }
        long dueWall = dueNanos + wallOffsetNanos;
        String latency = latencyNanos < 0 ? "" : String.format(Locale.ROOT, "%.2f", latencyNanos / 1e6);
        try {
            out.write(String.format(Locale.ROOT, "%.0f,%s,%s", rate,
                    Instant.ofEpochSecond(0, dueWall).toString(), latency));
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ACK log", e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the ACK log", e);
        }
    }
}
