package io.wecominbox.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.Test;

class MetricHandlesTest {

    private final List<String> registered = new ArrayList<>();

    private final MetricHandles<Counter> handles = new MetricHandles<>(tags -> {
        registered.add(Arrays.toString(tags));
        return new CountingCounter();
    }, "handler", "disposition");

    @Test
    void asksTheRegistryOnceForEachSetOfLabelValues() {
        Counter first = handles.of("crm", "processed");
        first.inc();
        Counter again = handles.of(new String("crm"), "processed");
        again.inc();
        Counter other = handles.of("crm", "duplicate");

        assertSame(first, again);
        assertNotSame(first, other);
        assertEquals(2, first.getCount());
        assertEquals(List.of(tags("crm", "processed"), tags("crm", "duplicate")), registered);
    }

    @Test
    void refusesValuesThatDoNotMatchTheLabels() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> handles.of("crm"));
        assertEquals("labels [handler, disposition] take 2 values, not 1", e.getMessage());
    }

    private static String tags(String handler, String disposition) {
        return Arrays.toString(new Tag[] {new Tag("handler", handler), new Tag("disposition", disposition)});
    }

    private static final class CountingCounter implements Counter {
        private long count;

        @Override
        public void inc() {
            count++;
        }

        @Override
        public void inc(long n) {
            count += n;
        }

        @Override
        public long getCount() {
            return count;
        }
    }
}
