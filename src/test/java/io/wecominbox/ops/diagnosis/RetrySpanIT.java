package io.wecominbox.ops.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * GET /api/ops/retry-span on the real stack: deliveries with known spans are written into callback_log as
 * the ingest writes them (backdated, under an app of the test's own, as in RetryDiagnosisIT), and the answer
 * must carry their P99, the implied window, and a warning for the crm handler, whose hot window the test
 * configuration sets to 8 s (src/test/liberty/configDropins/overrides/dedup-test.xml).
 */
@ExtendWith(ArquillianExtension.class)
class RetrySpanIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void theP99SpanOfTheRepeatedEventsImpliesTheHotWindowAndFlagsCrmsShortOne() throws SQLException {
        String app = "span-" + UUID.randomUUID();
        // two hours back: inside the period asked for, outside the dashboard's last-hour retry rate
        OffsetDateTime twoHoursAgo = OffsetDateTime.now(ZoneOffset.UTC).minusHours(2);
        deliver(app, twoHoursAgo, 0, 5);              // span 5
        deliver(app, twoHoursAgo, 0, 5, 10);          // span 10
        deliver(app, twoHoursAgo, 0, 5, 10, 84);      // span 84
        deliver(app, twoHoursAgo, 0, 5, 10, 90);      // span 90
        deliver(app, twoHoursAgo, 0);                 // delivered once: an event, no span
        deliver(app, twoHoursAgo.minusDays(10), 0, 300); // before the period: not measured

        JsonObject report = report("period=PT6H&app=" + app);

        assertEquals("MEASURED", report.getString("status"));
        assertEquals("PT6H", report.getString("period"));
        assertEquals(14, report.getInt("deliveries"));
        assertEquals(5, report.getInt("newEvents"));
        assertEquals(4, report.getInt("repeatedEvents"));
        // percentile_cont(0.99) over 5, 10, 84, 90: 84 + 0.97 × (90 - 84)
        assertEquals(89.82, report.getJsonNumber("p99SpanSeconds").doubleValue(), 0.0005);
        assertEquals(90.0, report.getJsonNumber("maxSpanSeconds").doubleValue(), 0.0005);
        assertEquals(179.64, report.getJsonNumber("impliedLowerSeconds").doubleValue(), 0.0005);
        assertEquals(269.46, report.getJsonNumber("impliedUpperSeconds").doubleValue(), 0.0005);
        assertEquals("PT4M30S", report.getString("recommendedHotWindow"), "3 × P99, rounded up to whole seconds");

        assertEquals(Map.of("bot", "COVERS", "contact", "NOT_APPLICABLE", "conversation", "NOT_APPLICABLE",
            "crm", "SHORTER_THAN_IMPLIED", "welcome", "COVERS"), verdicts(report));
        List<String> warnings = strings(report, "warnings");
        assertEquals(1, warnings.size(), "only crm: " + warnings);
        assertTrue(warnings.get(0).startsWith("crm: hot window PT8S is shorter than 2 × the P99 retry span (PT3M)"),
            warnings.get(0));
        assertTrue(warnings.get(0).contains("wecom.handler.crm.hot-window to at least PT4M30S"), warnings.get(0));
    }

    @Test
    void withoutAnyRepeatedEventTheAnswerSaysNoDataAndWarnsNobody() throws SQLException {
        String app = "span-empty-" + UUID.randomUUID();
        deliver(app, OffsetDateTime.now(ZoneOffset.UTC).minusHours(2), 0);

        JsonObject report = report("app=" + app);

        assertEquals("NO_DATA", report.getString("status"));
        assertEquals("P7D", report.getString("period"), "the default period");
        assertEquals(1, report.getInt("deliveries"));
        assertEquals(0, report.getInt("repeatedEvents"));
        assertEquals(JsonValue.NULL, report.get("p99SpanSeconds"), "null, not left out");
        assertEquals(JsonValue.NULL, report.get("impliedUpperSeconds"));
        assertEquals(JsonValue.NULL, report.get("recommendedHotWindow"));
        assertTrue(report.getString("note").startsWith("No event was delivered more than once"), report.getString("note"));
        assertEquals(Map.of("bot", "NO_DATA", "contact", "NOT_APPLICABLE", "conversation", "NOT_APPLICABLE",
            "crm", "NO_DATA", "welcome", "NO_DATA"), verdicts(report));
        assertEquals(List.of(), strings(report, "warnings"));
    }

    @Test
    void aPeriodThatIsNoDurationOrTooLongIsRefusedWithItsReason() {
        HttpResponse<String> notADuration = Http.getAsAdmin("/api/ops/retry-span?period=7days");
        assertEquals(400, notADuration.statusCode());
        assertTrue(notADuration.body().contains("bad_period"), notADuration.body());
        assertEquals(400, Http.getAsAdmin("/api/ops/retry-span?period=P365D").statusCode());
    }

    private static JsonObject report(String query) {
        HttpResponse<String> answer = Http.getAsAdmin("/api/ops/retry-span?" + query);
        assertEquals(200, answer.statusCode(), answer.body());
        try (JsonReader reader = Json.createReader(new StringReader(answer.body()))) {
            return reader.readObject();
        }
    }

    private static Map<String, String> verdicts(JsonObject report) {
        return report.getJsonArray("handlers").getValuesAs(JsonObject.class).stream()
            .collect(Collectors.toMap(h -> h.getString("handler"), h -> h.getString("verdict")));
    }

    private static List<String> strings(JsonObject report, String name) {
        return report.getJsonArray(name).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    /** One event key of {@code app}, delivered at these offsets (seconds) after {@code first}. */
    private static void deliver(String app, OffsetDateTime first, double... offsets) throws SQLException {
        String key = app + ":msg:" + UUID.randomUUID();
        try (Connection db = StackEnv.openDatabase(); PreparedStatement insert = db.prepareStatement("""
                -- seeded history, already published: the relay must not send it to the handlers
                INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body, plaintext,
                                          event_type, event_key, attempt, outcome, published_at)
                VALUES (?, ?, 'ww0', '', '', '', 'text', ?, ?, 'ENQUEUED', now())
                """)) {
            for (int i = 0; i < offsets.length; i++) {
                insert.setObject(1, first.plusNanos((long) (offsets[i] * 1_000_000_000L)));
                insert.setString(2, app);
                insert.setString(3, key);
                insert.setInt(4, i + 1);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
