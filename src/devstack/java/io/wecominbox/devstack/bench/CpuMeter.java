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
 * Threads of a component can be reported apart under a name of their own (and are then taken out of it): the
 * fake WeCom API's threads of this JVM, and a server JVM's JIT compiler threads, whose work is warm-up, not a
 * cost per event.
 */
final class CpuMeter {

    static final String DRIVER = "driver";
    static final String PGBENCH = "pgbench";
    static final String MACHINE = "machine";
    static final String OTHER = "other";

    /** HotSpot's JIT compiler threads ("C1 CompilerThread0", ...) as /proc shows their names, cut at 15 chars. */
    static final List<String> JIT_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre");

    private final Map<String, Long> roots;
    private final double ticksPerSecond;
    private final Map<String, ThreadsApart> apart;

    CpuMeter(Map<String, Long> roots, double ticksPerSecond) {
        this(roots, ticksPerSecond, Map.of());
    }

    private CpuMeter(Map<String, Long> roots, double ticksPerSecond, Map<String, ThreadsApart> apart) {
        this.roots = new LinkedHashMap<>(roots);
        this.ticksPerSecond = ticksPerSecond;
        this.apart = new LinkedHashMap<>(apart);
    }

    /** The same meter with one component's root replaced (a restarted server has a new pid). */
    CpuMeter withRoot(String name, long pid) {
        Map<String, Long> changed = new LinkedHashMap<>(roots);
        changed.put(name, pid);
        return new CpuMeter(changed, ticksPerSecond, apart);
    }

    /**
     * The same meter with this JVM's threads whose name starts with {@code threadPrefix} reported apart as
     * {@code name} and taken out of "driver" (the fake WeCom API runs in the bench's JVM).
     */
    CpuMeter withOwnThreads(String name, String threadPrefix) {
        return withThreadsApart(name, DRIVER, List.of(threadPrefix));
    }

    /**
     * The same meter with the JIT compiler threads of a component's JVM reported apart as "{@code root} JIT"
     * and taken out of it: a server compiles its hot code for minutes under a new load (20-50 % of a core in
     * a bench's first steps), a cost that ends, not one per event. Unknown roots are left alone.
     */
    CpuMeter withJitApart(String root) {
        return roots.containsKey(root) ? withThreadsApart(root + " JIT", root, JIT_THREADS) : this;
    }

    /**
     * Threads of {@code from} (a root's process tree, or {@link #DRIVER} for this JVM) whose name starts with
     * one of {@code prefixes}, reported apart as {@code name}. Counted thread by thread ({@link #endedThreads}):
     * one that ended between two readings counts nothing, and what it did since the first stays in {@code from}.
     */
    private CpuMeter withThreadsApart(String name, String from, List<String> prefixes) {
        Map<String, ThreadsApart> changed = new LinkedHashMap<>(apart);
        changed.put(name, new ThreadsApart(from, List.copyOf(prefixes)));
        return new CpuMeter(roots, ticksPerSecond, changed);
    }

    /** Each root with the threads reported apart from it right after it, the driver likewise, then the rest. */
    List<String> components() {
        List<String> names = new java.util.ArrayList<>();
        for (String root : roots.keySet()) {
            names.add(root);
            names.addAll(apartFrom(root));
        }
        names.add(DRIVER);
        names.addAll(apartFrom(DRIVER));
        names.addAll(List.of(PGBENCH, MACHINE, OTHER));
        return names;
    }

    private List<String> apartFrom(String from) {
        return apart.entrySet().stream().filter(e -> e.getValue().from().equals(from)).map(Map.Entry::getKey).toList();
    }

    private record ThreadsApart(String from, List<String> prefixes) {
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
            return new Reading(System.nanoTime(), Map.of(), Map.of());
        }
        Map<String, Long> ticks = new LinkedHashMap<>();
        Map<String, List<Long>> trees = new HashMap<>();
        roots.forEach((name, root) -> {
            trees.put(name, tree(stats, root));
            ticks.put(name, trees.get(name).stream().mapToLong(pid -> stats.get(pid)[1] + stats.get(pid)[2]).sum());
        });
        long self = ProcessHandle.current().pid();
        if (stats.containsKey(self)) {
            trees.put(DRIVER, List.of(self));
            ticks.put(DRIVER, stats.get(self)[1]);
            ticks.put(PGBENCH, stats.get(self)[2]);
        }
        Map<String, Map<Long, Long>> threadsApart = new HashMap<>();
        apart.forEach((name, threads) -> {
            if (ticks.containsKey(threads.from())) {
                Map<Long, Long> byThread = threadTicks(trees.get(threads.from()), threads.prefixes());
                long threadTicks = byThread.values().stream().mapToLong(Long::longValue).sum();
                threadsApart.put(name, byThread);
                ticks.put(name, threadTicks);
                ticks.put(threads.from(), ticks.get(threads.from()) - threadTicks);
            }
        });
        ticks.put(MACHINE, machineBusyTicks());
        return new Reading(System.nanoTime(), ticks, threadsApart);
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
            double value = 100.0 * (b - a + endedThreads(name, from, to)) / ticksPerSecond / seconds;
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

    /**
     * What the difference of two readings' sums gets wrong for {@code name}: a component reported apart gets back
     * the time of its threads that ended in between (its sum lost them), and the component they were taken from
     * gives it up again (its process totals kept them). Zero for everyone else.
     */
    private long endedThreads(String name, Reading from, Reading to) {
        if (apart.containsKey(name)) {
            return ended(from.threadsApart().get(name), to.threadsApart().get(name));
        }
        long given = 0;
        for (Map.Entry<String, ThreadsApart> e : apart.entrySet()) {
            if (e.getValue().from().equals(name)) {
                given -= ended(from.threadsApart().get(e.getKey()), to.threadsApart().get(e.getKey()));
            }
        }
        return given;
    }

    /** Ticks the earlier reading counted for threads absent from (or restarted under their id in) the later one. */
    static long ended(Map<Long, Long> before, Map<Long, Long> after) {
        if (before == null || after == null) {
            return 0;
        }
        long lost = 0;
        for (Map.Entry<Long, Long> thread : before.entrySet()) {
            Long now = after.get(thread.getKey());
            if (now == null || now < thread.getValue()) { // fewer ticks: a new thread under an ended one's id
                lost += thread.getValue();
            }
        }
        return lost;
    }

    /** Ticks per component; for a component reported apart also per thread id, for {@link #usage}. */
    record Reading(long nanos, Map<String, Long> ticks, Map<String, Map<Long, Long>> threadsApart) {
    }

    /** The root and every process below it (none when the root is gone). */
    private static List<Long> tree(Map<Long, long[]> stats, long root) {
        if (!stats.containsKey(root)) {
            return List.of();
        }
        Map<Long, List<Long>> children = new HashMap<>();
        stats.forEach((pid, stat) -> children.computeIfAbsent(stat[0], k -> new java.util.ArrayList<>()).add(pid));
        List<Long> pids = new java.util.ArrayList<>();
        java.util.ArrayDeque<Long> todo = new java.util.ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            long pid = todo.pop();
            pids.add(pid);
            todo.addAll(children.getOrDefault(pid, List.of()));
        }
        return pids;
    }

    /** utime + stime of each live thread of these processes whose name (/proc/PID/task/TID/comm) starts with a prefix. */
    private static Map<Long, Long> threadTicks(List<Long> pids, List<String> prefixes) {
        Map<Long, Long> byThread = new HashMap<>();
        for (long pid : pids) {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks) {
                    try {
                        String name = Files.readString(task.resolve("comm")).strip();
                        if (prefixes.stream().anyMatch(name::startsWith)) {
                            long[] stat = stat(task.resolve("stat"));
                            if (stat != null) {
                                byThread.put(Long.parseLong(task.getFileName().toString()), stat[1]);
                            }
                        }
                    } catch (IOException e) {
                        // the thread ended while we looked
                    }
                }
            } catch (IOException e) {
                // the process ended while we looked
            }
        }
        return byThread;
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
