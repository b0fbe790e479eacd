package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void threadsOfThisJvmNamedApartAreReportedApartAndTakenOutOfTheDriver() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        CpuMeter cpu = new CpuMeter(Map.of(), 100).withOwnThreads("burner", "cpu-meter-burn");
        CpuMeter.Reading before = cpu.read();
        AtomicBoolean burning = new AtomicBoolean(true);
        Thread burner = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, "cpu-meter-burn");
        burner.start();
        // read while it is alive (an ended thread's time stays with the process), until it shows: on a loaded
        // machine a fixed 300 ms window gave it no tick at all; the bound is generous, not a timing claim
        long burnt = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            while (burnt < 5 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                burnt = cpu.read().ticks().get("burner") - before.ticks().get("burner");
            }
        } finally {
            burning.set(false);
            burner.join();
        }
        assertTrue(burnt >= 5, "the burning thread's ticks after up to 60 s: " + burnt);
        assertTrue(cpu.components().indexOf("burner") == cpu.components().indexOf(CpuMeter.DRIVER) + 1,
                cpu.components().toString());
    }
}
