package io.wecominbox.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.callbacklog.CallbackLogRetention;
import io.wecominbox.callbacklog.MonthPartition;
import io.wecominbox.testsupport.RolledBackTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * callback_log's retention on the migrated schema, each case inside one transaction that is rolled back (DDL
 * included, PostgreSQL's is transactional): rows the relay has not published yet are invisible to it then, so
 * the guards can be shown without the running stack publishing them first, and nothing stays in the database.
 */
class CallbackLogRetentionIT {

    private static final Instant NOW = Instant.now();
    private static final RetentionPolicy POLICY = new RetentionPolicy("callback_log", Duration.ofDays(30),
        Duration.ofDays(180));
    private final String app = "it-ret-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void contentPastItsWindowIsErasedButAnUnpublishedDeliveryKeepsItsContentAndItsMonth() throws Exception {
        RolledBackTransaction.run(c -> {
            Instant old = NOW.minus(Duration.ofDays(400));
            MonthPartition oldMonth = MonthPartition.containing(old);
            make(c, oldMonth);
            long unpublishedOld = insert(c, old, false);
            long erasable = insert(c, NOW.minus(Duration.ofDays(40)), true);
            long waiting = insert(c, NOW.minus(Duration.ofDays(40)), false);
            long recent = insert(c, NOW.minus(Duration.ofDays(2)), true);

            Result r = apply(c);

            assertEquals("", content(c, erasable), "a published delivery past 30 days: content erased");
            assertTrue(erasedAt(c, erasable), "and marked erased");
            assertEquals("<xml>kept</xml>", content(c, waiting), "an unpublished one keeps its content");
            assertEquals("<xml>kept</xml>", content(c, recent), "a recent one keeps its content");
            assertEquals("<xml>kept</xml>", content(c, unpublishedOld), "so does an unpublished one of any age");
            assertEquals("1 unpublished row(s)", r.kept.get(oldMonth.name()),
                "a month past its window that still waits for the relay is not dropped: " + r.kept);
            assertFalse(r.dropped.contains(oldMonth.name()));
            assertTrue(exists(c, unpublishedOld), "its row is still there");
        });
    }

    @Test
    void aMonthEntirelyPastTheDropWindowLeavesWholeAndAYoungerMonthStays() throws Exception {
        RolledBackTransaction.run(c -> {
            MonthPartition gone = MonthPartition.containing(NOW.minus(Duration.ofDays(400)));
            // the month that holds the cutoff itself: partly younger than 180 days, so it stays
            MonthPartition straddling = MonthPartition.containing(NOW.minus(Duration.ofDays(180)));
            make(c, gone);
            make(c, straddling);
            long a = insert(c, gone.start().plusSeconds(60), true);
            long b = insert(c, gone.end().minusSeconds(60), true);
            long c1 = insert(c, straddling.start().plusSeconds(60), true);

            Result r = apply(c);

            assertTrue(r.dropped.contains(gone.name()), "dropped: " + r.dropped + ", kept: " + r.kept);
            assertFalse(partitionExists(c, gone.name()), gone.name() + " is gone");
            assertFalse(exists(c, a) || exists(c, b), "with its rows");
            assertTrue(partitionExists(c, straddling.name()), straddling.name() + " stays");
            assertTrue(exists(c, c1), "with its rows, although this one is past 180 days: months leave whole");
            assertTrue(r.deleted.get("callback_log") >= 2, "counted: " + r.deleted);
        });
    }

    @Test
    void theDefaultPartitionsOldPublishedRowsAreDeletedRowByRow() throws Exception {
        RolledBackTransaction.run(c -> {
            // a month with no partition: the delivery lands in callback_log_default
            Instant ancient = NOW.minus(Duration.ofDays(3000));
            long row = insert(c, ancient, true);
            assertEquals("callback_log_default", partitionOf(c, row));

            Result r = apply(c);

            assertFalse(exists(c, row), "deleted from the default partition");
            assertTrue(r.deleted.get("callback_log") >= 1);
        });
    }

    @Test
    void aMonthWhoseDeliveriesAlreadySitInTheDefaultPartitionIsNotMadeAndTheOthersAre() throws Exception {
        RolledBackTransaction.run(c -> {
            // five months ahead has no partition yet: its delivery goes to the default partition
            MonthPartition far = MonthPartition.containing(NOW).next().next().next().next().next();
            long row = insert(c, far.start().plusSeconds(3600), true);
            assertEquals("callback_log_default", partitionOf(c, row));

            Map<String, String> notMade = new LinkedHashMap<>();
            List<String> made = CallbackLogRetention.makeAhead(c, NOW, 6, notMade);

            assertTrue(notMade.get(far.name()).contains("callback_log_default"), "not made: " + notMade);
            assertFalse(made.contains(far.name()));
            assertTrue(partitionExists(c, far.next().name()), "the month after it is made: " + made);
            assertEquals("callback_log_default", partitionOf(c, row), "the delivery stays where it is");
        });
    }

    private record Result(Map<String, Long> erased, Map<String, Long> deleted, List<String> dropped,
                          Map<String, String> kept) {
    }

    private static Result apply(Connection c) throws SQLException {
        Result r = new Result(new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>(), new LinkedHashMap<>());
        RetentionJob.apply(c, POLICY, NOW, 100, r.erased, r.deleted, r.dropped, r.kept);
        return r;
    }

    private static void make(Connection c, MonthPartition month) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT callback_log_month_partition(?)")) {
            s.setObject(1, OffsetDateTime.ofInstant(month.start(), ZoneOffset.UTC));
            s.execute();
        }
    }

    private long insert(Connection c, Instant receivedAt, boolean published) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body, plaintext, event_type,
                    event_key, attempt, outcome, published_at)
                VALUES (?, ?, 'ww-it', 'q', '<xml>raw</xml>', '<xml>kept</xml>', 'text', ?, 1, 'ENQUEUED', ?)
                RETURNING callback_log_id""")) {
            s.setObject(1, OffsetDateTime.ofInstant(receivedAt, ZoneOffset.UTC));
            s.setString(2, app);
            s.setString(3, app + ":msg:" + UUID.randomUUID());
            s.setObject(4, published ? OffsetDateTime.now(ZoneOffset.UTC) : null);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String content(Connection c, long id) throws SQLException {
        return one(c, "SELECT plaintext FROM callback_log WHERE callback_log_id = ?", id);
    }

    private static boolean erasedAt(Connection c, long id) throws SQLException {
        return "true".equals(one(c, "SELECT (content_erased_at IS NOT NULL AND raw_body = '')::text FROM callback_log"
            + " WHERE callback_log_id = ?", id));
    }

    private static boolean exists(Connection c, long id) throws SQLException {
        return one(c, "SELECT 'yes' FROM callback_log WHERE callback_log_id = ?", id) != null;
    }

    private static String partitionOf(Connection c, long id) throws SQLException {
        return one(c, "SELECT tableoid::regclass::text FROM callback_log WHERE callback_log_id = ?", id);
    }

    private static boolean partitionExists(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static String one(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
