package io.wecominbox.ingest;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rejections counted in memory per (hour, app, reason) until the next flush. Bounded: the app is a configured
 * name or "?", reasons are an enum and flushed hours leave, so a flood of forged requests grows a count, not
 * the map; past {@code maxKeys} keys (a database down for days) further rejections are only counted as dropped.
 */
public final class RejectionTally {

    public static final String UNKNOWN_APP = "?";
    public static final int MAX_SAMPLE_CHARS = 256;

    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private final int maxKeys;

    public RejectionTally(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** One rejected request; {@code app} must already be a configured name or {@link #UNKNOWN_APP}. */
    public void add(String app, Rejection rejection, Instant at, String remoteAddr, String detail) {
        Key key = new Key(at.truncatedTo(ChronoUnit.HOURS), app, rejection.code());
        Entry one = new Entry(key.hour(), app, key.reason(), 1, at, at, remoteAddr, sample(detail));
        merge(key, one);
    }

    /** Takes everything counted so far; what arrives meanwhile stays for the next drain. */
    public List<Entry> drain() {
        List<Entry> out = new ArrayList<>(entries.size());
        for (Key key : entries.keySet()) {
            Entry e = entries.remove(key);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** Puts drained entries back after a failed flush, merged with anything counted since. */
    public void restore(List<Entry> drained) {
        drained.forEach(e -> merge(new Key(e.hourBucket(), e.app(), e.reason()), e));
    }

    /** Rejections not counted because the map was full; reset by reading. */
    public long takeDropped() {
        return dropped.getAndSet(0);
    }

    public int size() {
        return entries.size();
    }

    private void merge(Key key, Entry entry) {
        if (entries.size() >= maxKeys && !entries.containsKey(key)) {
            dropped.addAndGet(entry.count());
            return;
        }
        entries.merge(key, entry, Entry::plus);
    }

    /** Printable, one line, at most {@value #MAX_SAMPLE_CHARS} characters. */
    static String sample(String detail) {
        if (detail == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(detail.length(), MAX_SAMPLE_CHARS));
        for (int i = 0; i < detail.length() && out.length() < MAX_SAMPLE_CHARS; i++) {
            char c = detail.charAt(i);
            out.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return out.toString();
    }

    private record Key(Instant hour, String app, String reason) {
    }

    /** The totals of one (hour, app, reason); the last remote address and sample are the latest one's. */
    public record Entry(Instant hourBucket, String app, String reason, long count, Instant firstSeen,
                        Instant lastSeen, String lastRemoteAddr, String sample) {

        Entry plus(Entry other) {
            Entry latest = other.lastSeen.isBefore(lastSeen) ? this : other;
            return new Entry(hourBucket, app, reason, count + other.count,
                    firstSeen.isBefore(other.firstSeen) ? firstSeen : other.firstSeen,
                    latest.lastSeen, latest.lastRemoteAddr, latest.sample);
        }
    }
}
