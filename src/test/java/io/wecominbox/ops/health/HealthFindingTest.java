package io.wecominbox.ops.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

class HealthFindingTest {

    private static final HealthFinding REDIS_DOWN = HealthFinding.named("redis")
            .detail("tier", "redis 10.0.3.7:6379").detail("error", "JedisConnectionException")
            .detail("poolSize", 16).down("hot_tier_unreachable");

    @Test
    void thePublicViewOfAnUpCheckIsItsNameAndStatusOnly() {
        HealthCheckResponse response = HealthFinding.named("ack-path").detail("stores", "callback_log").up()
                .publicResponse();
        assertEquals("ack-path", response.getName());
        assertEquals(HealthCheckResponse.Status.UP, response.getStatus());
        assertTrue(response.getData().map(Map::isEmpty).orElse(true), "no data: " + response.getData());
    }

    @Test
    void thePublicViewOfADownCheckAddsOnlyItsReasonCode() {
        HealthCheckResponse response = REDIS_DOWN.publicResponse();
        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus());
        assertEquals(Map.of("reason", "hot_tier_unreachable"), response.getData().orElseThrow());
        String shown = response.getData().orElseThrow().toString();
        for (String secret : List.of("10.0.3.7", "6379", "Jedis", "16")) {
            assertFalse(shown.contains(secret), secret + " in " + shown);
        }
    }

    @Test
    void theDetailsStayWithTheFindingForOperators() {
        assertEquals(List.of("tier", "error", "poolSize"), List.copyOf(REDIS_DOWN.details().keySet()));
        assertEquals("redis 10.0.3.7:6379", REDIS_DOWN.details().get("tier"));
        assertThrows(UnsupportedOperationException.class, () -> REDIS_DOWN.details().put("x", "y"));
    }

    @Test
    void aReasonIsACodeNeverAMessage() {
        assertThrows(IllegalArgumentException.class,
                () -> HealthFinding.named("database").down("connection to 10.0.0.5:5432 refused"));
        assertThrows(NullPointerException.class, () -> HealthFinding.named("database").down(null));
    }

    @Test
    void theLivenessCheckReportsTheHeapOnlyInItsDetails() {
        HealthFinding nearlyFull = ProcessLivenessCheck.heap(980L << 20, 1000L << 20);
        assertFalse(nearlyFull.up());
        assertEquals("heap_nearly_full", nearlyFull.reason());
        assertEquals(980L, nearlyFull.details().get("heapUsedMiB"));
        assertEquals(Map.of("reason", "heap_nearly_full"), nearlyFull.publicResponse().getData().orElseThrow());
        assertTrue(ProcessLivenessCheck.heap(100L << 20, 1000L << 20).up());
    }

    @Test
    void theOperatorsReportIsDownWhenAnyCheckIsDown() {
        HealthFinding up = HealthFinding.named("database").up();
        var report = OpsHealthResource.HealthReport.of(List.of(up, REDIS_DOWN), List.of());
        assertEquals("DOWN", report.status());
        assertEquals("hot_tier_unreachable", report.readiness().get(1).reason());
        assertEquals("redis 10.0.3.7:6379", report.readiness().get(1).details().get("tier"));
        assertEquals("UP", OpsHealthResource.HealthReport.of(List.of(up), List.of(up)).status());
    }
}
