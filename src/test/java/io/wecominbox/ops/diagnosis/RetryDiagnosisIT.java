package io.wecominbox.ops.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wecominbox.testsupport.StackEnv;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The retry-diagnosis views (V30) on the real schema: deliveries are written into callback_log as the ingest
 * would have written them, at chosen moments, and the views must tell WeCom's retries from other repeats.
 */
class RetryDiagnosisIT {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 5, 9, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void deliveriesAtZeroFiveTenAndNinetySecondsAreThePlatformRetrying() throws SQLException {
        String key = newKey();
        deliver(key, 0, 5.0, 10.0, 90.0);

        assertEquals(List.of("FIRST", "PLATFORM_RETRY", "PLATFORM_RETRY", "PLATFORM_RETRY"), classifications(key));
        assertEquals(List.of("", "5.000", "5.000", "80.000"), gaps(key));
    }

    @Test
    void aRepeatHoursLaterIsNotThePlatformRetrying() throws SQLException {
        String key = newKey();
        deliver(key, 0, 5.0, 7200.0);

        assertEquals(List.of("FIRST", "PLATFORM_RETRY", "OTHER_REPEAT"), classifications(key));
    }

    @Test
    void aFifthDeliveryIsNeverThePlatformsBecauseWeComRetriesThreeTimesAtMost() throws SQLException {
        String key = newKey();
        deliver(key, 0, 5.0, 10.0, 88.0, 95.0);

        assertEquals("OTHER_REPEAT", classifications(key).get(4));
    }

    @Test
    void retryRateAndSpanCountDeliveriesPerEvent() throws SQLException {
        String key = newKey();
        deliver(key, 0, 5.0, 10.0, 90.0);

        try (Connection db = StackEnv.openDatabase();
             PreparedStatement span = db.prepareStatement(
                     "SELECT deliveries, span_seconds FROM callback_retry_span WHERE event_key = ?")) {
            span.setString(1, key);
            try (ResultSet row = span.executeQuery()) {
                row.next();
                assertEquals(4, row.getInt(1));
                assertEquals("90.000", row.getBigDecimal(2).toPlainString());
            }
        }
    }

    private static String newKey() {
        return "diagnosis-test:" + UUID.randomUUID();
    }

    /** One callback_log row per offset (seconds after T0), as the ingest writes them. */
    private static void deliver(String key, double... offsets) throws SQLException {
        try (Connection db = StackEnv.openDatabase();
             PreparedStatement insert = db.prepareStatement("""
                     -- seeded history, already published: the relay must not send it to the handlers
                     INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body, plaintext,
                                               event_type, event_key, attempt, outcome, published_at)
                     VALUES (?, 'diagnosis-test', 'ww0', '', '', '', 'change_external_contact', ?, ?, 'ENQUEUED', now())
                     """)) {
            for (int i = 0; i < offsets.length; i++) {
                insert.setObject(1, T0.plusNanos((long) (offsets[i] * 1_000_000_000L)));
                insert.setString(2, key);
                insert.setInt(3, i + 1);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static List<String> classifications(String key) throws SQLException {
        return column(key, "classification");
    }

    private static List<String> gaps(String key) throws SQLException {
        return column(key, "coalesce(gap_seconds::text, '')");
    }

    private static List<String> column(String key, String expression) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection db = StackEnv.openDatabase();
             PreparedStatement query = db.prepareStatement("SELECT " + expression
                     + " FROM callback_delivery_gap WHERE event_key = ? ORDER BY delivery_number")) {
            query.setString(1, key);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }
}
