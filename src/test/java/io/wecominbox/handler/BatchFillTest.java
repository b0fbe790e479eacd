package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A batch takes what waits, then what arrives within its linger, and never more than its size. */
class BatchFillTest {

    /** A queue on a fake clock: messages waiting now, and arrivals at given milliseconds from the start. */
    private static final class ScriptedQueue implements BatchFill.Source<String> {
        final Deque<String> waiting = new ArrayDeque<>();
        final TreeMap<Long, String> arrivals = new TreeMap<>();
        final List<Long> waits = new ArrayList<>();
        long nowMillis;

        @Override
        public String takeWaiting() {
            return waiting.poll();
        }

        @Override
        public String awaitArrival(long millis) {
            waits.add(millis);
            var next = arrivals.ceilingEntry(nowMillis);
            if (next == null || next.getKey() > nowMillis + millis) {
                nowMillis += millis;
                return null;
            }
            nowMillis = next.getKey();
            arrivals.remove(next.getKey());
            return next.getValue();
        }

        long nanoTime() {
            return nowMillis * 1_000_000;
        }
    }

    private static BatchFill<String> fill(int max, long lingerMillis, ScriptedQueue queue) {
        return new BatchFill<>(max, Duration.ofMillis(lingerMillis), m -> m.startsWith("redelivered"),
            queue::nanoTime);
    }

    @Test
    void withoutALingerABatchTakesWhatWaitsAndNeverWaits() {
        ScriptedQueue queue = new ScriptedQueue();
        queue.waiting.addAll(List.of("b", "c"));
        queue.arrivals.put(1L, "late");
        assertEquals(List.of("a", "b", "c"), fill(50, 0, queue).fill("a", queue));
        assertEquals(List.of(), queue.waits);
    }

    @Test
    void withALingerArrivalsWithinItJoinTheBatchAndTheWaitEndsWithTheLinger() {
        ScriptedQueue queue = new ScriptedQueue();
        queue.waiting.add("b");
        queue.arrivals.put(40L, "c");
        queue.arrivals.put(180L, "d");
        queue.arrivals.put(260L, "too late");
        assertEquals(List.of("a", "b", "c", "d"), fill(50, 250, queue).fill("a", queue));
        assertEquals(List.of(250L, 210L, 70L), queue.waits, "each wait is what is left of the 250 ms");
        assertEquals(250L, queue.nowMillis);
    }

    @Test
    void aFullBatchStopsTakingAndWaiting() {
        ScriptedQueue queue = new ScriptedQueue();
        queue.waiting.addAll(List.of("b", "c", "d"));
        queue.arrivals.put(10L, "e");
        assertEquals(List.of("a", "b", "c"), fill(3, 250, queue).fill("a", queue));
        assertEquals(List.of(), queue.waits);
    }

    @Test
    void aRedeliveredMessageEndsTheBatchEvenWhileTheLingerLasts() {
        ScriptedQueue queue = new ScriptedQueue();
        queue.arrivals.put(20L, "redelivered x");
        queue.arrivals.put(30L, "after it");
        assertEquals(List.of("a", "redelivered x"), fill(50, 250, queue).fill("a", queue));
        assertEquals(1, queue.arrivals.size());
    }
}
