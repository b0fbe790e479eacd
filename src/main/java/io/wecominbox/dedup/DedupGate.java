package io.wecominbox.dedup;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        Admission admission = admit(List.of(request)).get(0);
        if (admission.runs()) {
            effect.run();
        }
        return admission.disposition();
    }

    /**
     * The gate for a batch of deliveries in one transaction: hot claims one by one, the cold claims in one
     * statement, and for each delivery whether its effect runs. A key that occurs twice in the batch runs
     * once (the later copy is a cold duplicate). Each disposition is recorded if the transaction commits;
     * the caller runs the effects of the admitted deliveries before that.
     *
     * @throws RejectedForRedelivery a store is down and the policy rejects, or a key is held elsewhere and
     *                               no durable row can tell how it ended: the whole batch rolls back
     */
    public List<Admission> admit(List<DedupRequest> requests) {
        List<Pending> pending = new ArrayList<>(requests.size());
        Set<String> seen = new HashSet<>();
        List<ColdRecord> coldRecords = new ArrayList<>();
        for (DedupRequest request : requests) {
            Pending p = new Pending(request);
            pending.add(p);
            DedupPolicy policy = request.policy();
            boolean firstInBatch = seen.add(request.dedupKey());
            if (!firstInBatch && (policy.usesHotTier() || policy.usesColdTier())) {
                p.decided = Disposition.DUPLICATE_COLD; // the first copy's claim is in this very transaction
                continue;
            }
            if (policy.usesHotTier()) {
                p.hotClaim = hot.claim(request.dedupKey(), request.messageId(), policy.hotWindow());
            }
            if (p.hotClaim == HotClaim.DONE) {
                p.decided = Disposition.DUPLICATE_HOT;
                continue;
            }
            if (p.hotClaim == HotClaim.STORE_DOWN) {
                rejectIf(policy.onHotStoreDown(), request, "hot");
                p.storeSkipped = true;
            }
            if (p.hotClaim == HotClaim.CLAIMED || p.hotClaim == HotClaim.HELD_BY_OTHER) {
                // Done after commit whatever ran (also for a cold duplicate: the next copy is then answered hot);
                // on rollback only our own claim is dropped.
                transaction.afterCompletion(
                    () -> hot.markDone(request.dedupKey(), request.messageId(), policy.hotWindow()),
                    () -> hot.release(request.dedupKey(), request.messageId()));
            }
            if (policy.usesColdTier()) {
                coldRecords.add(request.coldRecord());
            }
        }
        Map<String, ColdClaim> coldClaims = coldRecords.isEmpty() ? Map.of() : cold.claimAll(coldRecords);
        List<Admission> admissions = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            admissions.add(onCommit(p.request, p.decided != null ? p.decided : decide(p, coldClaims)));
        }
        return admissions;
    }

    private Disposition decide(Pending p, Map<String, ColdClaim> coldClaims) {
        DedupRequest request = p.request;
        DedupPolicy policy = request.policy();
        if (policy.usesColdTier()) {
            ColdClaim coldClaim = coldClaims.get(request.dedupKey());
            if (coldClaim == ColdClaim.DUPLICATE) {
                return Disposition.DUPLICATE_COLD;
            }
            if (coldClaim == ColdClaim.STORE_DOWN) {
                rejectIf(policy.onColdStoreDown(), request, "cold");
                p.storeSkipped = true;
            }
        }
        if (p.hotClaim == HotClaim.HELD_BY_OTHER && (p.storeSkipped || !policy.usesColdTier())) {
            // Another delivery holds the key and no durable row can say how it ended: wait and see.
            throw new RejectedForRedelivery("another delivery of the key is in flight", request.dedupKey());
        }
        return doneDisposition(request, p.storeSkipped);
    }

    /** One delivery's verdict: whether its effect runs, and the disposition recorded when it commits. */
    public record Admission(DedupRequest request, Disposition disposition) {

        public boolean runs() {
            return disposition != Disposition.DUPLICATE_HOT && disposition != Disposition.DUPLICATE_COLD;
        }
    }

    private static final class Pending {
        final DedupRequest request;
        HotClaim hotClaim;
        boolean storeSkipped;
        Disposition decided;

        Pending(DedupRequest request) {
            this.request = request;
        }
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
                + " rejects: the delivery will be redelivered", request.dedupKey());
        }
    }

    private Admission onCommit(DedupRequest request, Disposition disposition) {
        transaction.afterCompletion(() -> dispositions.record(request, disposition), () -> { });
        return new Admission(request, disposition);
    }
}
