package io.wecominbox.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Keeps metric label values safe and few. Labels only ever carry names from code or configuration (app,
 * event type, outcome, reason, queue, handler); this is the last guard against a value that is not one
 * of those (an event type made up by a sender, a typo) turning into a new time series per request.
 */
public final class MetricLabels {

    public static final String OTHER = "other";
    public static final String NONE = "none";

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.:?-]{1,64}");

    private final int maxValues;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /** At most {@code maxValues} distinct values pass; later newcomers all become "other". */
    public MetricLabels(int maxValues) {
        this.maxValues = maxValues;
    }

    public String of(String value) {
        if (value == null || value.isEmpty()) {
            return NONE;
        }
        if (seen.contains(value)) {
            return value; // passed the pattern when it was first seen: no regex per request
        }
        if (!SAFE.matcher(value).matches()) {
            return OTHER;
        }
        if (seen.size() >= maxValues) {
            return OTHER;
        }
        seen.add(value);
        return value;
    }
}
