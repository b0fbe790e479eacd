package io.wecominbox.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The gate's decisions with both tiers faked: every disposition, both store-down policies for both tiers. */
class DedupGateTest {

    private final AtomicLong nanos = new AtomicLong();
    private final SwitchableHotTier hot = new SwitchableHotTier(new InProcessHotTier(nanos::get));
    private final FakeColdTier cold = new FakeColdTier();
    private final FakeTransaction tx = new FakeTransaction();
    private final List<Disposition> recorded = new ArrayList<>();
    private final DedupGate gate = new DedupGate(hot, cold, tx, (request, d) -> recorded.add(d));
    private final AtomicInteger effects = new AtomicInteger();

    private static final DedupPolicy DEFAULTS = DedupPolicy.builder().hotWindow(Duration.ofMinutes(10)).build();

    @Test
    void firstDeliveryRunsTheEffectAndIsProcessedOnCommit() throws Exception {
        assertEquals(Disposition.PROCESSED, deliver("m1", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(1, effects.get());
        assertEquals(List.of(Disposition.PROCESSED), recorded);
        assertEquals(HotClaim.DONE, hot.claim(key(null), "other", Duration.ofMinutes(1)));
    }

    @Test
    void duplicateInsideTheHotWindowIsAnsweredWithoutTheColdTier() throws Exception {
        deliver("m1", 1, null, DEFAULTS);
        tx.commit();
        int coldCalls = cold.calls;
        assertEquals(Disposition.DUPLICATE_HOT, deliver("m2", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(coldCalls, cold.calls, "no database call for a hot duplicate");
        assertEquals(1, effects.get());
    }

    @Test
    void afterTheHotWindowTheColdTierStillSaysDuplicate() throws Exception {
        deliver("m1", 1, null, DEFAULTS);
        tx.commit();
        nanos.addAndGet(Duration.ofMinutes(11).toNanos());
        assertEquals(Disposition.DUPLICATE_COLD, deliver("m2", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(1, effects.get());
        assertEquals(HotClaim.DONE, hot.claim(key(null), "other", Duration.ofMinutes(1)), "answered hot again");
    }

    @Test
    void rollbackReleasesTheClaimAndTheRedeliveryRunsAsRetried() throws Exception {
        deliver("m1", 1, null, DEFAULTS);
        tx.rollback();
        assertEquals(Disposition.RETRIED, deliver("m1", 2, null, DEFAULTS));
        tx.commit();
        assertEquals(List.of(Disposition.RETRIED), recorded);
    }

    @Test
    void ownClaimLeftByACrashDoesNotSwallowTheRedeliveryOfTheSameMessage() throws Exception {
        hot.claim(key(null), "m1", Duration.ofMinutes(10)); // the crash: claimed, never released
        assertEquals(Disposition.RETRIED, deliver("m1", 2, null, DEFAULTS));
        tx.commit();
        assertEquals(1, effects.get());
    }

    @Test
    void claimHeldByAnotherDeliveryLeavesTheDecisionToTheColdTier() throws Exception {
        hot.claim(key(null), "m-other", Duration.ofMinutes(10));
        cold.committed.add(key(null)); // the other one committed meanwhile
        assertEquals(Disposition.DUPLICATE_COLD, deliver("m1", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(0, effects.get());
    }

    @Test
    void claimHeldByAnotherWithTheColdTierDownIsRedeliveredLater() {
        hot.claim(key(null), "m-other", Duration.ofMinutes(10));
        cold.down = true;
        DedupPolicy proceed = DEFAULTS.toBuilder().onColdStoreDown(StoreDownAction.PROCEED).build();
        assertThrows(RejectedForRedelivery.class, () -> deliver("m1", 1, null, proceed));
        assertEquals(0, effects.get());
    }

    @Test
    void hotStoreDownWithProceedRunsOnceThanksToTheColdTier() throws Exception {
        hot.down = true;
        assertEquals(Disposition.PROCEEDED_WITHOUT_STORE, deliver("m1", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(Disposition.DUPLICATE_COLD, deliver("m2", 1, null, DEFAULTS));
        tx.commit();
        assertEquals(1, effects.get());
    }

    @Test
    void hotStoreDownWithRejectRollsBackWithoutTouchingTheColdTier() {
        hot.down = true;
        DedupPolicy reject = DEFAULTS.toBuilder().onHotStoreDown(StoreDownAction.REJECT).build();
        assertThrows(RejectedForRedelivery.class, () -> deliver("m1", 1, null, reject));
        assertEquals(0, effects.get());
        assertEquals(0, cold.calls);
        assertEquals(List.of(Disposition.REJECTED_STORE_DOWN), recorded, "recorded although it rolls back");
    }

    @Test
    void coldStoreDownWithRejectRollsBackAndReleasesTheHotClaim() {
        cold.down = true;
        assertThrows(RejectedForRedelivery.class, () -> deliver("m1", 1, null, DEFAULTS));
        tx.rollback();
        assertEquals(0, effects.get());
        assertEquals(List.of(Disposition.REJECTED_STORE_DOWN), recorded);
        assertEquals(HotClaim.CLAIMED, hot.claim(key(null), "m2", Duration.ofMinutes(1)), "claim released");
    }

    @Test
    void coldStoreDownWithProceedRunsUnderTheHotTierAlone() throws Exception {
        cold.down = true;
        DedupPolicy proceed = DEFAULTS.toBuilder().onColdStoreDown(StoreDownAction.PROCEED).build();
        assertEquals(Disposition.PROCEEDED_WITHOUT_STORE, deliver("m1", 1, null, proceed));
        tx.commit();
        assertEquals(Disposition.DUPLICATE_HOT, deliver("m2", 1, null, proceed));
        tx.commit();
        assertEquals(1, effects.get());
    }

    @Test
    void aBatchIdRunsTheEventOnceMoreAndTheSameBatchOnlyOnce() throws Exception {
        deliver("m1", 1, null, DEFAULTS);
        tx.commit();
        assertEquals(Disposition.FORCED, deliver("m2", 1, "b1", DEFAULTS));
        tx.commit();
        assertEquals(Disposition.DUPLICATE_HOT, deliver("m3", 1, "b1", DEFAULTS));
        tx.commit();
        assertEquals(2, effects.get());
    }

    @Test
    void aNaturallyIdempotentHandlerTouchesNoStore() throws Exception {
        hot.down = true;
        cold.down = true;
        assertEquals(Disposition.PROCESSED, deliver("m1", 1, null, DedupPolicy.naturallyIdempotentHandler()));
        tx.commit();
        assertEquals(0, cold.calls);
        assertEquals(0, hot.calls);
    }

    @Test
    void aFailingEffectLeavesNothingBehind() {
        assertThrows(IllegalStateException.class, () -> gate.run(request("m1", 1, null, DEFAULTS), () -> {
            throw new IllegalStateException("boom");
        }));
        tx.rollback();
        cold.rollback();
        assertTrue(recorded.isEmpty());
        assertEquals(HotClaim.CLAIMED, hot.claim(key(null), "m2", Duration.ofMinutes(1)));
    }

    private Disposition deliver(String messageId, int deliveryCount, String batch, DedupPolicy policy)
            throws Exception {
        return gate.run(request(messageId, deliveryCount, batch, policy), effects::incrementAndGet);
    }

    private static DedupRequest request(String messageId, int deliveryCount, String batch, DedupPolicy policy) {
        return new DedupRequest("crm", key(batch), "customer:msg:1", batch, "customer", messageId, 7, deliveryCount,
            policy, null);
    }

    private static String key(String batch) {
        return DedupKey.of("crm", "customer:msg:1", batch);
    }

    /** The in-process tier, with a switch that makes it "down". */
    private static final class SwitchableHotTier implements HotTier {
        private final HotTier delegate;
        boolean down;
        int calls;

        SwitchableHotTier(HotTier delegate) {
            this.delegate = delegate;
        }

        @Override
        public HotClaim claim(String key, String owner, Duration ttl) {
            calls++;
            return down ? HotClaim.STORE_DOWN : delegate.claim(key, owner, ttl);
        }

        @Override
        public void markDone(String key, String owner, Duration ttl) {
            if (!down) {
                delegate.markDone(key, owner, ttl);
            }
        }

        @Override
        public void release(String key, String owner) {
            if (!down) {
                delegate.release(key, owner);
            }
        }

        @Override
        public String describe() {
            return "switchable";
        }
    }

    /** A unique key set whose inserts become visible on commit (single-threaded: no waiting needed). */
    private final class FakeColdTier implements ColdTier {
        final Set<String> committed = new HashSet<>();
        final Set<String> uncommitted = new HashSet<>();
        boolean down;
        int calls;

        @Override
        public ColdClaim claim(ColdRecord record) {
            calls++;
            if (down) {
                return ColdClaim.STORE_DOWN;
            }
            if (committed.contains(record.dedupKey())) {
                return ColdClaim.DUPLICATE;
            }
            uncommitted.add(record.dedupKey());
            tx.afterCompletion(() -> committed.addAll(uncommitted), uncommitted::clear);
            return ColdClaim.CLAIMED;
        }

        void rollback() {
            uncommitted.clear();
        }
    }

    private static final class FakeTransaction implements TransactionHooks {
        private final List<Runnable[]> hooks = new ArrayList<>();

        @Override
        public void afterCompletion(Runnable onCommit, Runnable onRollback) {
            hooks.add(new Runnable[] {onCommit, onRollback});
        }

        void commit() {
            end(0);
        }

        void rollback() {
            end(1);
        }

        private void end(int which) {
            List<Runnable[]> run = new ArrayList<>(hooks);
            hooks.clear();
            run.forEach(h -> h[which].run());
        }
    }
}
