package io.wecominbox.ingest;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Per-key limits on requests in flight and per second (a token bucket holding up to two seconds' worth, so a
 * burst after a quiet spell passes). Decided without a request, unit-tested; {@link CallbackAdmission} keys it by
 * source address and by app.
 *
 * <p>Memory is bounded: at most {@code maxKeys} keys are tracked, and a key with nothing in flight and a full
 * bucket is forgotten. Past the bound a new key is let through untracked and counted, rather than refused: a
 * flood from many addresses must not lock out WeCom's own (the connection limit and the timeouts bound it).
 */
final class RequestLimiter {

    /** Why a request was refused, or {@link #ADMITTED}. */
    enum Verdict { ADMITTED, TOO_MANY_IN_FLIGHT, TOO_MANY_PER_SECOND }

    /** The answer to one request: its verdict and, when admitted and tracked, the place to give back. */
    static final class Permit {
        private final Verdict verdict;
        private final String key;
        private final Slot slot;
        private boolean released;

        private Permit(Verdict verdict, String key, Slot slot) {
            this.verdict = verdict;
            this.key = key;
            this.slot = slot;
        }

        /** Admitted without a limit (an exempt key): nothing to give back. */
        static final Permit UNLIMITED = new Permit(Verdict.ADMITTED, null, null);

        Verdict verdict() {
            return verdict;
        }

        boolean admitted() {
            return verdict == Verdict.ADMITTED;
        }
    }

    private final int maxInFlight;
    private final double perSecond;
    private final double burst;
    private final int maxKeys;
    private final LongSupplier nanoTime;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private long untracked;

    /** @param maxInFlight at most this many at once per key; {@code perSecond} 0 means no rate limit */
    RequestLimiter(int maxInFlight, double perSecond, int maxKeys, LongSupplier nanoTime) {
        this.maxInFlight = maxInFlight;
        this.perSecond = perSecond;
        this.burst = 2 * perSecond;
        this.maxKeys = maxKeys;
        this.nanoTime = nanoTime;
    }

    /** Takes a place for {@code key}; an admitted request's permit must be {@link #release released} once. */
    Permit acquire(String key) {
        while (true) {
            Slot slot = slots.get(key);
            if (slot == null) {
                if (slots.size() >= maxKeys && sweep() == 0) {
                    synchronized (this) {
                        untracked++;
                    }
                    return new Permit(Verdict.ADMITTED, key, null);
                }
                slot = slots.computeIfAbsent(key, k -> new Slot(burst, nanoTime.getAsLong()));
            }
            synchronized (slot) {
                if (slot.forgotten) {
                    continue; // released and dropped in between: take the key's new slot
                }
                return new Permit(take(slot), key, slot);
            }
        }
    }

    private Verdict take(Slot slot) {
        if (slot.inFlight >= maxInFlight) {
            return Verdict.TOO_MANY_IN_FLIGHT;
        }
        if (perSecond > 0) {
            long now = nanoTime.getAsLong();
            slot.tokens = refilledBy(slot, now);
            slot.refilledAt = now;
            if (slot.tokens < 1) {
                return Verdict.TOO_MANY_PER_SECOND;
            }
            slot.tokens -= 1;
        }
        slot.inFlight++;
        return Verdict.ADMITTED;
    }

    /** The request holding {@code permit} is answered; a second call, or one for a refusal, does nothing. */
    void release(Permit permit) {
        if (!permit.admitted() || permit.slot == null) {
            return;
        }
        synchronized (permit.slot) {
            if (permit.released) {
                return;
            }
            permit.released = true;
            permit.slot.inFlight--;
            forgetIfIdle(permit.key, permit.slot);
        }
    }

    /** Drops the keys that are idle with a full bucket; how many. Runs only when the map is full. */
    private int sweep() {
        int dropped = 0;
        for (Map.Entry<String, Slot> entry : slots.entrySet()) {
            synchronized (entry.getValue()) {
                dropped += forgetIfIdle(entry.getKey(), entry.getValue()) ? 1 : 0;
            }
        }
        return dropped;
    }

    // the caller holds the slot's lock
    private boolean forgetIfIdle(String key, Slot slot) {
        if (slot.forgotten || slot.inFlight > 0 || refilledBy(slot, nanoTime.getAsLong()) < burst) {
            return false;
        }
        slot.forgotten = true;
        slots.remove(key, slot);
        return true;
    }

    int inFlight(String key) {
        Slot slot = slots.get(key);
        return slot == null ? 0 : slot.inFlight;
    }

    int trackedKeys() {
        return slots.size();
    }

    synchronized long untracked() {
        return untracked;
    }

    private double refilledBy(Slot slot, long now) {
        return perSecond <= 0 ? burst : Math.min(burst, slot.tokens + (now - slot.refilledAt) * perSecond / 1e9);
    }

    private static final class Slot {
        int inFlight;
        double tokens;
        long refilledAt;
        boolean forgotten;

        Slot(double tokens, long now) {
            this.tokens = tokens;
            this.refilledAt = now;
        }
    }
}
