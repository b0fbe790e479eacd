package io.wecominbox.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.microprofile.metrics.Metric;
import org.eclipse.microprofile.metrics.Tag;

/**
 * A metric's instances by label values, each looked up in the registry once. {@code MetricRegistry.counter(...)}
 * validates and hashes its tags on every call: per event, that was 3-4 % of Liberty's CPU at 200 events/s
 * (docs/benchmarks.md). The values must already be few ({@link MetricLabels}): each set is kept for good.
 *
 * @param <M> the metric's type: Counter, Timer, Histogram
 */
public final class MetricHandles<M extends Metric> {

    private final String[] labelNames;
    private final Function<Tag[], M> register;
    private final Map<List<String>, M> handles = new ConcurrentHashMap<>();

    /**
     * @param register   what gets or registers the metric for these tags,
     *                   e.g. {@code tags -> registry.counter(META, tags)}
     * @param labelNames the labels, in the order {@link #of} takes their values
     */
    public MetricHandles(Function<Tag[], M> register, String... labelNames) {
        this.labelNames = labelNames.clone();
        this.register = register;
    }

    /** The metric for these label values, in the order of the names given to the constructor. */
    public M of(String... values) {
        if (values.length != labelNames.length) {
            throw new IllegalArgumentException("labels " + Arrays.toString(labelNames) + " take "
                + labelNames.length + " values, not " + values.length);
        }
        List<String> key = Arrays.asList(values);
        M metric = handles.get(key);
        return metric != null ? metric : handles.computeIfAbsent(List.of(values), k -> register.apply(tags(k)));
    }

    private Tag[] tags(List<String> values) {
        Tag[] tags = new Tag[labelNames.length];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = new Tag(labelNames[i], values.get(i));
        }
        return tags;
    }
}
