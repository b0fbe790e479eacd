package io.wecominbox.dedup;

/**
 * Runs a handler's effect at most once per dedup key, inside the caller's (the MDB's) XA transaction:
 * hot tier first (a duplicate inside the hot window never touches the database), then the cold tier's
 * unique row, then the effect; the claim and the effect commit together or not at all.
 * A store that is down is handled by the handler's policy (PROCEED or REJECT), never by an exception path.
 */
public final class DedupGate {

    /** The handler's side effect; throwing rolls everything back. */
    @FunctionalInterface
    public interface Effect {
        void run() throws Exception;
    }

    private final HotTier hot;
    private final ColdTier cold;
    private final TransactionHooks transaction;
    private final DispositionSink dispositions;

    public DedupGate(HotTier hot, ColdTier cold, TransactionHooks transaction, DispositionSink dispositions) {
        this.hot = hot;
        this.cold = cold;
        this.transaction = transaction;
        this.dispositions = dispositions;
    }

    /** Returns the disposition this delivery gets if its transaction commits (it is recorded then). */
    public Disposition run(DedupRequest request, Effect effect) throws Exception {
        DedupPolicy policy = request.policy();
        HotClaim hotClaim = policy.usesHotTier()
            ? hot.claim(request.dedupKey(), request.messageId(), policy.hotWindow()) : null;
        boolean storeSkipped = false;
        if (hotClaim == HotClaim.DONE) {
            return onCommit(request, Disposition.DUPLICATE_HOT);
        }
        if (hotClaim == HotClaim.STORE_DOWN) {
            rejectIf(policy.onHotStoreDown(), request, "hot");
            storeSkipped = true;
        }
        if (hotClaim == HotClaim.CLAIMED || hotClaim == HotClaim.HELD_BY_OTHER) {
            // Done after commit whatever ran (also for a cold duplicate: the next copy is then answered hot);
            // on rollback only our own claim is dropped.
            transaction.afterCompletion(
                () -> hot.markDone(request.dedupKey(), request.messageId(), policy.hotWindow()),
                () -> hot.release(request.dedupKey(), request.messageId()));
        }
        if (policy.usesColdTier()) {
            ColdClaim coldClaim = cold.claim(request.coldRecord());
            if (coldClaim == ColdClaim.DUPLICATE) {
                return onCommit(request, Disposition.DUPLICATE_COLD);
            }
            if (coldClaim == ColdClaim.STORE_DOWN) {
                rejectIf(policy.onColdStoreDown(), request, "cold");
                storeSkipped = true;
            }
        }
        if (hotClaim == HotClaim.HELD_BY_OTHER && (storeSkipped || !policy.usesColdTier())) {
            // Another delivery holds the key and no durable row can say how it ended: wait and see.
            throw new RejectedForRedelivery("another delivery of " + request.dedupKey() + " is in flight");
        }
        effect.run();
        return onCommit(request, doneDisposition(request, storeSkipped));
    }

    private static Disposition doneDisposition(DedupRequest request, boolean storeSkipped) {
        if (request.batchId() != null) {
            return Disposition.FORCED;
        }
        if (storeSkipped) {
            return Disposition.PROCEEDED_WITHOUT_STORE;
        }
        return request.deliveryCount() > 1 ? Disposition.RETRIED : Disposition.PROCESSED;
    }

    private void rejectIf(StoreDownAction action, DedupRequest request, String tier) {
        if (action == StoreDownAction.REJECT) {
            // recorded now: this attempt rolls back, so an after-commit hook would never fire
            dispositions.record(request, Disposition.REJECTED_STORE_DOWN);
            throw new RejectedForRedelivery(tier + " dedup store down and " + request.handler()
                + " rejects: " + request.dedupKey() + " will be redelivered");
        }
    }

    private Disposition onCommit(DedupRequest request, Disposition disposition) {
        transaction.afterCompletion(() -> dispositions.record(request, disposition), () -> { });
        return disposition;
    }
}
