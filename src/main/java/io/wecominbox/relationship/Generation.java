package io.wecominbox.relationship;

import java.time.Instant;

/**
 * One beginning of a relationship (member, customer) as we know it: when its add can have happened (an exact
 * second for a callback, a range for a pulled record) and when it ended (null while current).
 */
public record Generation(int number, Instant addedFrom, Instant addedUntil, Instant endedAt) {

    boolean current() {
        return endedAt == null;
    }

    /** Whether an add at {@code t} can be this generation's add. */
    boolean admitsAddAt(Instant t) {
        return (addedFrom == null || !t.isBefore(addedFrom))
            && (addedUntil == null || !t.isAfter(addedUntil))
            && (endedAt == null || !t.isAfter(endedAt));
    }

    /** Whether it can have begun by {@code t} (a delete at t can end it). */
    boolean begunBy(Instant t) {
        return addedFrom == null || !addedFrom.isAfter(t);
    }
}
