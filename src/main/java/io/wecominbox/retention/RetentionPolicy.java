package io.wecominbox.retention;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long one table keeps what: its content (customers' words and the raw request) until {@code eraseAfter},
 * its rows until {@code dropAfter}. A zero duration means "kept": nothing is erased, or no row leaves.
 *
 * @param table      the table, as in the database
 * @param eraseAfter age after which the content columns are erased (zero: never; null: the table has none)
 * @param dropAfter  age after which rows leave (zero: never)
 */
public record RetentionPolicy(String table, Duration eraseAfter, Duration dropAfter) {

    /** Shorter windows are refused: a typo of PT30M for P30D must not erase a day of deliveries. */
    static final Duration SHORTEST = Duration.ofDays(1);

    public RetentionPolicy {
        check(table, "erase-after", eraseAfter);
        check(table, "drop-after", dropAfter);
        if (eraseAfter != null && !eraseAfter.isZero() && !dropAfter.isZero() && eraseAfter.compareTo(dropAfter) > 0) {
            throw new IllegalArgumentException(table + ": erase-after " + eraseAfter + " is longer than drop-after "
                + dropAfter + " (rows leave before their content would be erased)");
        }
    }

    private static void check(String table, String what, Duration value) {
        if (value == null) {
            return;
        }
        if (value.isNegative() || (!value.isZero() && value.compareTo(SHORTEST) < 0)) {
            throw new IllegalArgumentException(table + ": " + what + " " + value + " must be zero (never) or at least "
                + SHORTEST);
        }
    }

    /** Content older than this instant is erased; empty when the table keeps it. */
    public Optional<Instant> eraseBefore(Instant now) {
        return eraseAfter == null || eraseAfter.isZero() ? Optional.empty() : Optional.of(now.minus(eraseAfter));
    }

    /** Rows older than this instant leave; empty when the table keeps them. */
    public Optional<Instant> dropBefore(Instant now) {
        return dropAfter.isZero() ? Optional.empty() : Optional.of(now.minus(dropAfter));
    }
}
