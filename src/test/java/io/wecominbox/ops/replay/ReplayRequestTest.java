package io.wecominbox.ops.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayRequestTest {

    @Test
    void aFullRequestIsReadWithEveryCriterion() {
        ReplayRequest r = ReplayRequest.parse("""
                {"from": "2026-12-01T08:00:00Z", "to": "2026-12-01T18:00:00+08:00", "app": "customer",
                 "eventTypes": ["text"], "eventKeys": ["customer:msg:1", "customer:msg:1"], "callbackLogIds": [7, 9],
                 "handlers": ["crm", "bot"], "batchId": "b-1.x_2", "reason": "CRM lost them", "maxRate": 50}""");
        assertEquals(OffsetDateTime.parse("2026-12-01T08:00:00Z"), r.selection().from());
        assertEquals("customer", r.selection().app());
        assertEquals(List.of("customer:msg:1"), r.selection().eventKeys(), "duplicates removed");
        assertEquals(List.of(7L, 9L), r.selection().callbackLogIds());
        assertEquals(List.of("crm", "bot"), r.handlers());
        assertEquals("b-1.x_2", r.batchId());
        assertEquals(50, r.maxRate());
    }

    @Test
    void withoutBatchIdOrHandlersTheyStayEmpty() {
        ReplayRequest r = ReplayRequest.parse("{\"callbackLogIds\": [1]}");
        assertNull(r.batchId());
        assertTrue(r.handlers().isEmpty());
        assertNull(r.maxRate());
    }

    @Test
    void aRequestWithoutAnyCriterionIsRefused() {
        assertReason("select at least one", "{\"handlers\": [\"crm\"], \"batchId\": \"b1\"}");
        assertReason("a JSON object is required", "");
    }

    @Test
    void eachBadFieldIsNamedInTheRefusal() {
        assertReason("not valid JSON", "{\"from\": ");
        assertReason("the body must be a JSON object", "[1]");
        assertReason("unknown field handler", "{\"app\": \"customer\", \"handler\": \"crm\"}");
        assertReason("from must be an ISO-8601 time", "{\"from\": \"yesterday\"}");
        assertReason("from must be before to", "{\"from\": \"2026-12-02T00:00:00Z\", \"to\": \"2026-12-01T00:00:00Z\"}");
        assertReason("callbackLogIds must be a list of positive", "{\"callbackLogIds\": [\"7\"]}");
        assertReason("callbackLogIds must be a list of positive", "{\"callbackLogIds\": [0]}");
        assertReason("eventKeys must be a list", "{\"eventKeys\": \"customer:msg:1\"}");
        assertReason("handler name must match", "{\"app\": \"customer\", \"handlers\": [\"CRM\"]}");
        assertReason("batch id must be 1-64", "{\"app\": \"customer\", \"batchId\": \"a b\"}");
        assertReason("batch id must be 1-64", "{\"app\": \"customer\", \"batchId\": \"" + "x".repeat(65) + "\"}");
        assertReason("maxRate must be a whole number", "{\"app\": \"customer\", \"maxRate\": 0}");
        assertReason("reason is limited", "{\"app\": \"customer\", \"reason\": \"" + "r".repeat(501) + "\"}");
        assertReason("app must not be blank", "{\"app\": \" \"}");
    }

    @Test
    void theSelectionIsStoredAsJsonWithOnlyTheGivenCriteria() {
        ReplayRequest r = ReplayRequest.parse(
            "{\"app\": \"customer\", \"eventKeys\": [\"k1\"], \"callbackLogIds\": [3]}");
        assertEquals("{\"app\":\"customer\",\"eventKeys\":[\"k1\"],\"callbackLogIds\":[3]}",
            r.selectionJson().toString());
    }

    private static void assertReason(String expected, String body) {
        InvalidReplayRequest e = assertThrows(InvalidReplayRequest.class, () -> ReplayRequest.parse(body));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
