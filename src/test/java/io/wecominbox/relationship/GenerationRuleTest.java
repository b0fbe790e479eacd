package io.wecominbox.relationship;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.wecominbox.relationship.GenerationRule.Begin;
import io.wecominbox.relationship.GenerationRule.Decision;
import io.wecominbox.relationship.GenerationRule.End;
import io.wecominbox.relationship.GenerationRule.Existing;
import io.wecominbox.relationship.GenerationRule.Stale;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generation rule, played through the orders callbacks and pulls can arrive in: whichever source comes
 * first records the fact and the other must land on the same generation; a delete and re-add is a new one.
 */
class GenerationRuleTest {

    private static final Instant FIRST_ADD = Instant.parse("2026-12-01T08:00:00Z");
    private static final Instant PULLED = Instant.parse("2026-12-01T09:00:00Z");

    /** Applies each decision like RelationshipGenerations does, so a sequence of events can be replayed. */
    private final List<Generation> known = new ArrayList<>();

    @Test
    void theFirstAddBeginsGenerationOneAndItsRetryIsTheSame() {
        assertEquals(new Begin(1, FIRST_ADD, FIRST_ADD, null), callbackAdd(FIRST_ADD));
        assertEquals(new Existing(1), callbackAdd(FIRST_ADD));
    }

    @Test
    void aPulledRecordOfAnAddWeHoldIsThatGeneration() {
        callbackAdd(FIRST_ADD);
        assertEquals(new Existing(1), pulled(PULLED, FIRST_ADD));
    }

    @Test
    void aLateCallbackAfterThePullIsThePulledGeneration() {
        Decision first = pulled(PULLED, FIRST_ADD);
        assertInstanceOf(Begin.class, first);
        assertEquals(1, first.generation());
        assertEquals(new Existing(1), callbackAdd(FIRST_ADD.plusSeconds(30)));
    }

    @Test
    void aCallbackStampedSlightlyAfterThePageByWeComsClockIsStillThePulledGeneration() {
        pulled(PULLED, FIRST_ADD);
        assertEquals(new Existing(1), callbackAdd(PULLED.plus(GenerationRule.CLOCK_SKEW_MARGIN)));
    }

    @Test
    void pullingTwiceFindsTheSameGeneration() {
        pulled(PULLED, FIRST_ADD);
        assertEquals(new Existing(1), pulled(PULLED.plusSeconds(1800), FIRST_ADD));
    }

    @Test
    void aDeleteAndReAddIsANewGenerationWhateverTheOrderOfItsCallbacks() {
        Instant deleted = FIRST_ADD.plusSeconds(100);
        Instant readded = FIRST_ADD.plusSeconds(200);
        callbackAdd(FIRST_ADD);
        // the re-add overtakes the delete (a redelivery): it is still a new fact
        assertEquals(new Begin(2, readded, readded, null), callbackAdd(readded));
        assertEquals(new End(1, deleted), delete(deleted));
        assertEquals(new Existing(2), callbackAdd(readded));
        assertEquals(new Existing(1), callbackAdd(FIRST_ADD));
    }

    @Test
    void aPullAfterAKnownDeleteIsTheReAddWhoseCallbackWasLost() {
        Instant deleted = FIRST_ADD.plusSeconds(100);
        callbackAdd(FIRST_ADD);
        delete(deleted);
        Decision pulled = pulled(PULLED, FIRST_ADD); // createtime is still the FIRST add
        assertEquals(new Begin(2, deleted.plusSeconds(1), PULLED.plus(GenerationRule.CLOCK_SKEW_MARGIN), null),
            pulled);
        assertEquals(new Existing(2), callbackAdd(deleted.plusSeconds(60)), "the lost re-add's late callback");
    }

    @Test
    void aPulledRecordOlderThanADeleteWeHoldIsStale() {
        callbackAdd(FIRST_ADD);
        delete(PULLED.plusSeconds(5));
        assertInstanceOf(Stale.class, pulled(PULLED, FIRST_ADD));
    }

    @Test
    void aDeleteBeforeItsAddRecordsTheGenerationTheLateAddJoins() {
        Instant deleted = FIRST_ADD.plusSeconds(3);
        assertEquals(new Begin(1, null, deleted, deleted), delete(deleted));
        assertEquals(new Existing(1), callbackAdd(FIRST_ADD));
        assertEquals(new Begin(2, deleted.plusSeconds(9), deleted.plusSeconds(9), null),
            callbackAdd(deleted.plusSeconds(9)));
    }

    @Test
    void aSecondDeleteOfOneGenerationKeepsTheFirstEnd() {
        callbackAdd(FIRST_ADD);
        delete(FIRST_ADD.plusSeconds(10));
        assertEquals(new Existing(1), delete(FIRST_ADD.plusSeconds(20)));
        assertEquals(FIRST_ADD.plusSeconds(10), known.get(0).endedAt());
    }

    @Test
    void aRelationshipAPassNoLongerListsEndsOnceForBothHandlers() {
        callbackAdd(FIRST_ADD);
        assertEquals(new End(1, PULLED), gone(PULLED));
        assertEquals(new Existing(1), gone(PULLED), "the second handler meets the same end");
        assertEquals(new Begin(2, PULLED.plusSeconds(60), PULLED.plusSeconds(60), null),
            callbackAdd(PULLED.plusSeconds(60)), "a re-add after it is a new fact");
    }

    @Test
    void aRelationshipADeleteCallbackAlreadyEndedIsNotGoneAgain() {
        callbackAdd(FIRST_ADD);
        delete(FIRST_ADD.plusSeconds(100));
        assertInstanceOf(Stale.class, gone(PULLED));
    }

    private Decision gone(Instant t) {
        return apply(GenerationRule.gone(known, t));
    }

    private Decision callbackAdd(Instant t) {
        return apply(GenerationRule.callbackAdd(known, t));
    }

    private Decision pulled(Instant observedAt, Instant followCreatedAt) {
        return apply(GenerationRule.pulled(known, observedAt, followCreatedAt));
    }

    private Decision delete(Instant t) {
        return apply(GenerationRule.delete(known, t));
    }

    private Decision apply(Decision d) {
        if (d instanceof Begin b) {
            known.add(new Generation(b.generation(), b.addedFrom(), b.addedUntil(), b.endedAt()));
        } else if (d instanceof End e) {
            Generation g = known.stream().filter(x -> x.number() == e.generation()).findFirst().orElseThrow();
            known.set(known.indexOf(g), new Generation(g.number(), g.addedFrom(), g.addedUntil(), e.endedAt()));
        }
        return d;
    }
}
