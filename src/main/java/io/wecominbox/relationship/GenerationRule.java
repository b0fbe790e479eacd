package io.wecominbox.relationship;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which generation of a relationship an event belongs to, from the generations known so far (pure logic; the
 * caller holds the relationship's lock and writes what this decides).
 * <ul>
 *   <li>A callback add at CreateTime t is the generation whose add range admits t; if none does, it begins a
 *       new one with the exact range [t, t]. WeCom sends an add only when the relationship begins, so an add at
 *       another second than a known one is a re-add, even if its delete never reached us.</li>
 *   <li>A pulled record observed at p: the current generation if there is one (the pull cannot tell a re-add
 *       from the first add: follow_user.createtime is the FIRST add); if the latest one ended before p, a new
 *       one began after that end and before p; if it ended at or after p the record is stale (the delete
 *       is newer than what the page showed).</li>
 *   <li>A delete at t ends the latest generation that can have begun by then; if none, the delete arrived
 *       before its add, and it records that generation (its add range ends at t, so the late add joins it).</li>
 *   <li>A relationship a complete pass (started at t) did not list ended by t, unless a delete we hold
 *       ended it already ({@link #gone}).</li>
 * </ul>
 */
public final class GenerationRule {

    /**
     * A pulled generation admits adds up to this long after its page was fetched: WeCom's clock stamps the
     * callback's CreateTime, ours the page, and a skew must not turn the late callback into a new fact.
     */
    public static final Duration CLOCK_SKEW_MARGIN = Duration.ofMinutes(5);

    private GenerationRule() {
    }

    /** What to do: use an existing generation, begin a new one, end one, or nothing (a stale pulled record). */
    public sealed interface Decision {
        /** The generation the event is about, or 0 for a stale record. */
        int generation();
    }

    public record Existing(int generation) implements Decision {
    }

    public record Begin(int generation, Instant addedFrom, Instant addedUntil, Instant endedAt) implements Decision {
    }

    public record End(int generation, Instant endedAt) implements Decision {
    }

    public record Stale() implements Decision {
        @Override
        public int generation() {
            return 0;
        }
    }

    public static Decision callbackAdd(List<Generation> known, Instant t) {
        Optional<Generation> match = known.stream().filter(g -> g.admitsAddAt(t))
            .max(Comparator.comparingInt(Generation::number));
        return match.<Decision>map(g -> new Existing(g.number()))
            .orElseGet(() -> new Begin(next(known), t, t, null));
    }

    public static Decision pulled(List<Generation> known, Instant observedAt, Instant followCreatedAt) {
        Instant from = followCreatedAt == null || followCreatedAt.isAfter(observedAt) ? observedAt : followCreatedAt;
        Optional<Generation> latest = latest(known);
        if (latest.isEmpty()) {
            return new Begin(1, from, observedAt.plus(CLOCK_SKEW_MARGIN), null);
        }
        Generation g = latest.get();
        if (g.current()) {
            return new Existing(g.number());
        }
        if (!g.endedAt().isBefore(observedAt)) {
            return new Stale();
        }
        // re-added after that end: the add is later than the end (whole seconds, like the callbacks' times)
        Instant afterEnd = g.endedAt().plusSeconds(1);
        return new Begin(g.number() + 1, from.isAfter(afterEnd) ? from : afterEnd,
            observedAt.plus(CLOCK_SKEW_MARGIN), null);
    }

    public static Decision delete(List<Generation> known, Instant t) {
        Optional<Generation> ended = begunBy(known, t);
        if (ended.isEmpty()) {
            return new Begin(next(known), null, t, t);
        }
        Generation g = ended.get();
        // a second delete of one generation (member and customer both deleted) keeps the earlier end
        return g.endedAt() != null && !g.endedAt().isAfter(t) ? new Existing(g.number()) : new End(g.number(), t);
    }

    /**
     * A complete reconcile pass that started at {@code t} no longer lists the relationship: the generation
     * current then ended by {@code t}. The same record seen by the second handler finds it ended at exactly
     * {@code t} (the same generation); one a delete callback ended otherwise is stale (that delete told us).
     */
    public static Decision gone(List<Generation> known, Instant t) {
        Optional<Generation> ended = begunBy(known, t);
        if (ended.isEmpty()) {
            return new Begin(next(known), null, t, t);
        }
        Generation g = ended.get();
        if (g.current()) {
            return new End(g.number(), t);
        }
        return g.endedAt().equals(t) ? new Existing(g.number()) : new Stale();
    }

    // the latest generation that can have begun by t: the one a delete at t ends
    private static Optional<Generation> begunBy(List<Generation> known, Instant t) {
        return known.stream().filter(g -> g.begunBy(t))
            .max(Comparator.comparing((Generation g) -> g.addedFrom() == null ? Instant.MIN : g.addedFrom())
                .thenComparingInt(Generation::number));
    }

    private static Optional<Generation> latest(List<Generation> known) {
        return known.stream().max(Comparator.comparingInt(Generation::number));
    }

    private static int next(List<Generation> known) {
        return latest(known).map(g -> g.number() + 1).orElse(1);
    }
}
