package io.wecominbox.devstack.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU used per component between two readings, from /proc (Linux only; elsewhere every figure is blank).
 * A component is a process tree (Liberty, the Artemis wrapper and its JVM, the PostgreSQL postmaster and all
 * its backends); exited children count through their parent's cutime/cstime. "driver" is this JVM alone,
 * "pgbench" its exited child processes, "machine" all busy time from /proc/stat, "other" what nobody here
 * used (builds and stacks of other people on a shared machine). Figures are in % of one core: 200 = 2 cores.
 */
final class CpuMeter {

    static final String DRIVER = "driver";
    static final String PGBENCH = "pgbench";
    static final String MACHINE = "machine";
    static final String OTHER = "other";

    private final Map<String, Long> roots;
    private final double ticksPerSecond;
    private final Map<String, String> ownThreads;

    CpuMeter(Map<String, Long> roots, double ticksPerSecond) {
        this(roots, ticksPerSecond, Map.of());
    }

    private CpuMeter(Map<String, Long> roots, double ticksPerSecond, Map<String, String> ownThreads) {
        this.roots = new LinkedHashMap<>(roots);
        this.ticksPerSecond = ticksPerSecond;
        this.ownThreads = new LinkedHashMap<>(ownThreads);
    }

    /** The same meter with one component's root replaced (a restarted server has a new pid). */
    CpuMeter withRoot(String name, long pid) {
        Map<String, Long> changed = new LinkedHashMap<>(roots);
        changed.put(name, pid);
        return new CpuMeter(changed, ticksPerSecond, ownThreads);
    }

    /**
     * The same meter with this JVM's threads whose name starts with {@code threadPrefix} reported apart as
     * {@code name} and taken out of "driver" (the fake WeCom API runs in the bench's JVM). Live threads only: a
     * thread that ended between two readings leaves its time in "driver".
     */
    CpuMeter withOwnThreads(String name, String threadPrefix) {
        Map<String, String> changed = new LinkedHashMap<>(ownThreads);
        changed.put(name, threadPrefix);
        return new CpuMeter(roots, ticksPerSecond, changed);
    }

    List<String> components() {
        List<String> names = new java.util.ArrayList<>(roots.keySet());
        names.add(DRIVER);
        names.addAll(ownThreads.keySet());
        names.addAll(List.of(PGBENCH, MACHINE, OTHER));
        return names;
    }

    Reading read() {
        Map<Long, long[]> stats = new HashMap<>(); // pid -> {ppid, own ticks, reaped children's ticks}
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path dir : proc) {
                long[] stat = stat(dir.resolve("stat"));
                if (stat != null) {
                    stats.put(Long.parseLong(dir.getFileName().toString()), stat);
                }
            }
        } catch (IOException e) {
            return new Reading(System.nanoTime(), Map.of());
        }
        Map<String, Long> ticks = new LinkedHashMap<>();
        roots.forEach((name, root) -> ticks.put(name, treeTicks(stats, root)));
        long[] self = stats.get(ProcessHandle.current().pid());
        if (self != null) {
            long apart = 0;
            for (Map.Entry<String, String> group : ownThreads.entrySet()) {
                long groupTicks = ownThreadTicks(group.getValue());
                ticks.put(group.getKey(), groupTicks);
                apart += groupTicks;
            }
            ticks.put(DRIVER, self[1] - apart);
            ticks.put(PGBENCH, self[2]);
        }
        ticks.put(MACHINE, machineBusyTicks());
        return new Reading(System.nanoTime(), ticks);
    }

    /** CPU % of one core per component between two readings. */
    Map<String, Double> usage(Reading from, Reading to) {
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        Map<String, Double> percent = new LinkedHashMap<>();
        double known = 0;
        for (String name : components()) {
            Long a = from.ticks().get(name);
            Long b = to.ticks().get(name);
            if (a == null || b == null || seconds <= 0) {
                continue;
            }
            double value = 100.0 * (b - a) / ticksPerSecond / seconds;
            percent.put(name, value);
            if (!name.equals(MACHINE)) {
                known += value;
            }
        }
        if (percent.containsKey(MACHINE)) {
            percent.put(OTHER, Math.max(0, percent.get(MACHINE) - known));
        }
        return percent;
    }

    record Reading(long nanos, Map<String, Long> ticks) {
    }

    private static long treeTicks(Map<Long, long[]> stats, long root) {
        if (!stats.containsKey(root)) {
            return 0;
        }
        Map<Long, List<Long>> children = new HashMap<>();
        stats.forEach((pid, stat) -> children.computeIfAbsent(stat[0], k -> new java.util.ArrayList<>()).add(pid));
        long sum = 0;
        java.util.ArrayDeque<Long> todo = new java.util.ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            long pid = todo.pop();
            long[] stat = stats.get(pid);
            sum += stat[1] + stat[2];
            todo.addAll(children.getOrDefault(pid, List.of()));
        }
        return sum;
    }

    /** utime + stime of this JVM's live threads whose name (/proc/self/task/TID/comm) starts with the prefix. */
    private static long ownThreadTicks(String prefix) {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().startsWith(prefix)) {
                        long[] stat = stat(task.resolve("stat"));
                        sum += stat == null ? 0 : stat[1];
                    }
                } catch (IOException e) {
                    // the thread ended while we looked
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return sum;
    }

    /** /proc/PID/stat after the ")" that ends the command name: ppid is field 2, utime..cstime 12-15. */
    private static long[] stat(Path file) {
        try {
            String line = Files.readString(file);
            String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12]),
                Long.parseLong(f[13]) + Long.parseLong(f[14])};
        } catch (IOException | RuntimeException e) {
            return null; // the process ended while we looked
        }
    }

    /** user + nice + system + irq + softirq + steal of the "cpu" line (idle and iowait excluded). */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
