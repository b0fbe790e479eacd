package io.wecominbox.callbacklog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryFilterTest {

    @Test
    void theGivenCriteriaBecomeOneConditionWithArrayParametersInOrder() {
        DeliveryFilter.Condition c = new DeliveryFilter(null, null, "customer", null, List.of("k1"), List.of(3L))
            .condition("s");
        assertEquals("s.app = ? AND s.event_key = ANY (?) AND s.callback_log_id = ANY (?)", c.sql());
        assertEquals("customer", c.parameters().get(0));
        assertArrayEquals(new String[] {"k1"}, (String[]) c.parameters().get(1));
        assertArrayEquals(new Long[] {3L}, (Long[]) c.parameters().get(2));
    }

    @Test
    void aTimeRangeIsInclusiveAtItsStartAndExclusiveAtItsEnd() {
        OffsetDateTime from = OffsetDateTime.parse("2026-12-01T08:00:00Z");
        OffsetDateTime to = OffsetDateTime.parse("2026-12-01T09:00:00Z");
        DeliveryFilter.Condition c = new DeliveryFilter(from, to, null, List.of("add_external_contact"), null, null)
            .condition("c");
        assertEquals("c.received_at >= ? AND c.received_at < ? AND c.event_type = ANY (?)", c.sql());
        assertEquals(List.of(from, to), c.parameters().subList(0, 2));
    }

    @Test
    void aFilterWithoutCriteriaIsRefusedRatherThanSelectingTheWholeTable() {
        DeliveryFilter empty = new DeliveryFilter(null, null, null, List.of(), null, null);
        assertTrue(empty.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> empty.condition("s"));
    }
}
