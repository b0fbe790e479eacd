package io.wecominbox.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MetricLabelsTest {

    @Test
    void namesPassAndAnythingElseBecomesOtherOrNone() {
        MetricLabels labels = new MetricLabels(10);
        assertEquals("change_external_contact", labels.of("change_external_contact"));
        assertEquals("?", labels.of("?"));
        assertEquals("none", labels.of(null));
        assertEquals("other", labels.of("a b"));
        assertEquals("other", labels.of("x".repeat(65)));
        assertEquals("other", labels.of("\u4e2d\u6587"));
    }

    @Test
    void newValuesBeyondTheCapAllBecomeOtherButKnownOnesStay() {
        MetricLabels labels = new MetricLabels(2);
        assertEquals("a", labels.of("a"));
        assertEquals("b", labels.of("b"));
        assertEquals("other", labels.of("c"));
        assertEquals("a", labels.of("a"));
    }
}
