package io.wecominbox.crash;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The faults of one round of the chaos campaign, drawn from a seed alone: the same seed and the same enabled
 * kinds give the same faults at the same offsets, so a failing round is replayed with its seed
 * ({@code -Dchaos.seed=<seed> -Dchaos.rounds=1}). Rounds chain: round k+1's seed is {@link #nextSeed(long)} of
 * round k's, so a batch is named by its first seed and any of its rounds can be replayed alone.
 *
 * @param seed   this round's seed
 * @param faults one or two, in the order they are played (each starts no earlier than its offset and after the
 *               one before it has recovered)
 */
public record ChaosPlan(long seed, List<Fault> faults) {

    /** What a fault does; see ChaosCampaignIT for how each is played and undone. */
    public enum Kind {
        /** kill -9 of a Liberty node (preferably frozen holding a prepared branch), restarted after the hold. */
        KILL_NODE,
        /** PostgreSQL restarted, fast shutdown (sessions end, prepared transactions survive). */
        PG_RESTART_FAST,
        /** PostgreSQL restarted, immediate shutdown (no checkpoint: crash recovery at start). */
        PG_RESTART_IMMEDIATE,
        /** kill -9 of the primary broker, the backup takes over; after the hold the primary takes it back. */
        BROKER_FAILOVER,
        /** Redis (the dedup hot tier) stopped for the hold, then started empty. */
        REDIS_RESTART,
        /** The nodes' connections to PostgreSQL dropped and refused for the hold (the TCP proxy cut). */
        NET_CUT_DB,
        /** The nodes' connections to the broker dropped and refused for the hold (the TCP proxy cut). */
        NET_CUT_BROKER,
        /**
         * A Liberty node stalled (SIGSTOP) for the hold, then resumed: a long GC pause or a starved VM. Its
         * connections stay open, its lease and its transactions must survive (docs/delivery-audit.md, L11).
         * Added after the batches before 2026-12-02 16:00 UTC: their seeds replay with "all,-STALL_NODE".
         */
        STALL_NODE;

        /** "all", or a comma list of kinds; a kind prefixed with '-' is left out ("all,-NET_CUT_DB"). */
        public static Set<Kind> parse(String spec) {
            EnumSet<Kind> kinds = EnumSet.noneOf(Kind.class);
            for (String part : spec.split(",")) {
                String name = part.trim().toUpperCase(Locale.ROOT);
                if (name.isEmpty()) {
                    continue;
                }
                boolean without = name.startsWith("-");
                name = without ? name.substring(1) : name;
                Set<Kind> named = name.equals("ALL") ? EnumSet.allOf(Kind.class) : EnumSet.of(Kind.valueOf(name));
                if (without) {
                    kinds.removeAll(named);
                } else {
                    kinds.addAll(named);
                }
            }
            return kinds;
        }
    }

    /**
     * One fault.
     *
     * @param kind      what
     * @param node      the Liberty node for KILL_NODE and STALL_NODE (1 or 2), else 0
     * @param at        offset from the start of the round's traffic
     * @param hold      how long the fault lasts before it is undone (node down, on the backup, Redis down, cut)
     * @param inDoubt   KILL_NODE only: hunt for a prepared branch (freeze, look, kill frozen) for up to 1 s first
     */
    public record Fault(Kind kind, int node, Duration at, Duration hold, boolean inDoubt) {

        /** E.g. {@code KILL_NODE(2,in-doubt)@4.2s+3.1s}. */
        public String describe() {
            String what = node > 0 ? kind + "(" + node + (inDoubt ? ",in-doubt" : "") + ")" : kind.name();
            return String.format(Locale.ROOT, "%s@%.1fs+%.1fs", what, at.toMillis() / 1000.0, hold.toMillis() / 1000.0);
        }
    }

    public ChaosPlan {
        faults = List.copyOf(faults);
    }

    /**
     * The plan of a round whose traffic lasts {@code traffic}: one fault, or two (40 %), of the enabled kinds,
     * the first in the first half of the traffic, the second after it and at least 3 s before the traffic ends.
     */
    public static ChaosPlan of(long seed, Set<Kind> enabled, Duration traffic) {
        if (enabled.isEmpty()) {
            throw new IllegalArgumentException("no fault kind enabled");
        }
        // in declaration order, whatever order the set iterates in: the same seed picks the same kind
        List<Kind> kinds = Arrays.stream(Kind.values()).filter(enabled::contains).toList();
        SplittableRandom random = new SplittableRandom(seed);
        int count = random.nextInt(100) < 40 ? 2 : 1;
        long trafficMs = Math.max(8000, traffic.toMillis());
        List<Fault> faults = new ArrayList<>();
        long earliest = 2000;
        for (int i = 0; i < count; i++) {
            long latest = i == 0 && count == 2 ? trafficMs / 2 : trafficMs - 3000;
            long at = earliest >= latest ? earliest : random.nextLong(earliest, latest);
            Kind kind = kinds.get(random.nextInt(kinds.size()));
            int node = kind == Kind.KILL_NODE || kind == Kind.STALL_NODE ? 1 + random.nextInt(2) : 0;
            boolean inDoubt = kind == Kind.KILL_NODE && random.nextBoolean();
            faults.add(new Fault(kind, node, Duration.ofMillis(at), Duration.ofMillis(hold(kind, random)), inDoubt));
            earliest = at + 1000;
        }
        return new ChaosPlan(seed, faults);
    }

    private static long hold(Kind kind, SplittableRandom random) {
        return switch (kind) {
            case KILL_NODE -> random.nextLong(0, 5000); // down before the restart
            case PG_RESTART_FAST, PG_RESTART_IMMEDIATE -> 0; // the restart is the outage
            case BROKER_FAILOVER -> random.nextLong(2000, 10_000); // live on the backup before the failback
            case REDIS_RESTART -> random.nextLong(500, 4000);
            case NET_CUT_DB, NET_CUT_BROKER -> random.nextLong(2000, 6000);
            case STALL_NODE -> random.nextLong(2000, 10_000); // below the 12 s a lease survives (server.xml)
        };
    }

    /** The seed of the round after the one with {@code seed}. */
    public static long nextSeed(long seed) {
        return new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L).nextLong();
    }

    /** The kinds in this plan, e.g. "KILL_NODE,REDIS_RESTART". */
    public String kinds() {
        return faults.stream().map(f -> f.kind().name()).collect(Collectors.joining(","));
    }

    public String describe() {
        return faults.stream().map(Fault::describe).collect(Collectors.joining(" ", "[", "]"));
    }
}
