package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void threadsOfThisJvmNamedApartAreReportedApartAndTakenOutOfTheDriver() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        CpuMeter cpu = new CpuMeter(Map.of(), 100).withOwnThreads("burner", "cpu-meter-burn");
        long burnt = burnUntilSeen(cpu, "burner", "cpu-meter-burn");
        assertTrue(burnt >= 5, "the burning thread's ticks after up to 60 s: " + burnt);
        assertTrue(cpu.components().indexOf("burner") == cpu.components().indexOf(CpuMeter.DRIVER) + 1,
                cpu.components().toString());
    }

    @Test
    void aWatchedJvmsCompilerThreadsAreReportedApartRightAfterItAndTakenOutOfIt() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        // this JVM watched as a server would be; a thread named like HotSpot's C2 compiler stands in for its JIT
        CpuMeter cpu = new CpuMeter(Map.of("server", ProcessHandle.current().pid()), 100).withJitApart("server")
                .withJitApart("not watched");
        assertEquals(List.of("server", "server JIT", CpuMeter.DRIVER, CpuMeter.PGBENCH, CpuMeter.MACHINE,
                CpuMeter.OTHER), cpu.components());
        long burnt = burnUntilSeen(cpu, "server JIT", "C2 CompilerThread-test");
        assertTrue(burnt >= 5, "the compiler-named thread's ticks after up to 60 s: " + burnt);
        CpuMeter whole = new CpuMeter(Map.of("server", ProcessHandle.current().pid()), 100);
        CpuMeter.Reading split = cpu.read();
        CpuMeter.Reading total = whole.read();
        long apart = split.ticks().get("server") + split.ticks().get("server JIT");
        // read one after the other while the test's threads run: the sum may trail the later reading a little
        assertTrue(apart <= total.ticks().get("server") && apart >= total.ticks().get("server") - 50,
                "server + its JIT " + apart + " against the whole process " + total.ticks().get("server"));
    }

    @Test
    void aThreadReportedApartThatEndedBetweenTwoReadingsCountsNothingAndGivesNothingBack() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        CpuMeter cpu = new CpuMeter(Map.of(), 100).withOwnThreads("worker", "cpu-meter-ended");
        AtomicBoolean burning = new AtomicBoolean(true);
        Thread worker = busyThread("cpu-meter-ended", burning);
        CpuMeter.Reading empty = cpu.read();
        worker.start();
        CpuMeter.Reading whileAlive = empty;
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            // until the worker has done half a second of CPU (a generous bound, not a timing claim)
            while (whileAlive.ticks().get("worker") - empty.ticks().get("worker") < 50 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                whileAlive = cpu.read();
            }
        } finally {
            burning.set(false);
            worker.join();
        }
        long done = whileAlive.ticks().get("worker") - empty.ticks().get("worker");
        assertTrue(done >= 50, "the worker's ticks after up to 60 s: " + done);
        Thread.sleep(200);
        Map<String, Double> usage = cpu.usage(whileAlive, cpu.read());
        assertEquals(0.0, usage.get("worker"), "no worker thread lives at the second reading");
        // a difference of sums gave the driver the worker's whole half second again over these 0.2 s
        assertTrue(usage.get(CpuMeter.DRIVER) <= 100.0 * Runtime.getRuntime().availableProcessors(),
                "the driver's share cannot pass the machine's cores: " + usage);
    }

    @Test
    void threadsGoneOrRestartedUnderTheirIdAreWhatTheEarlierReadingLoses() {
        assertEquals(30 + 7, CpuMeter.ended(Map.of(1L, 10L, 2L, 30L, 3L, 7L), Map.of(1L, 12L, 3L, 2L, 4L, 5L)));
        assertEquals(0, CpuMeter.ended(Map.of(1L, 10L), Map.of(1L, 10L)));
        assertEquals(0, CpuMeter.ended(null, Map.of(1L, 10L)));
    }

    /** Ticks of {@code component} gained while a busy thread named {@code threadName} ran, read while it lives. */
    private static long burnUntilSeen(CpuMeter cpu, String component, String threadName) throws Exception {
        CpuMeter.Reading before = cpu.read();
        AtomicBoolean burning = new AtomicBoolean(true);
        Thread burner = busyThread(threadName, burning);
        burner.start();
        // read while it is alive (an ended thread's time stays with the process), until it shows: on a loaded
        // machine a fixed 300 ms window gave it no tick at all; the bound is generous, not a timing claim
        long burnt = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            while (burnt < 5 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                burnt = cpu.read().ticks().get(component) - before.ticks().get(component);
            }
        } finally {
            burning.set(false);
            burner.join();
        }
        return burnt;
    }

    /** A thread named {@code name} that spins until {@code burning} turns false (not started). */
    private static Thread busyThread(String name, AtomicBoolean burning) {
        return new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, name);
    }
}
