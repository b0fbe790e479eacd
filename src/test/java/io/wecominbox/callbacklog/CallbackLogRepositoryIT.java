package io.wecominbox.callbacklog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.callbacklog.CallbackLogEvents.FirstDelivery;
import io.wecominbox.callbacklog.CallbackLogStatistics.IngestBucket;
import io.wecominbox.callbacklog.CallbackLogStatistics.KeyTimeline;
import io.wecominbox.callbacklog.CallbackLogStatistics.Repeats;
import io.wecominbox.db.ResultSets;
import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.RolledBackTransaction;
import io.wecominbox.testsupport.StackEnv;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * callback_log's repository on the migrated schema: each statement its clients use (the ACK path's insert, the
 * relay's take and mark, replay's reads, the statistics) on rows this test writes, in one transaction rolled back at
 * the end. Its rows carry an app name of their own, and the times are chosen so that the running stack's traffic
 * cannot fall into what is asserted.
 */
class CallbackLogRepositoryIT {

    private final String app = "it-repo-" + UUID.randomUUID().toString().substring(0, 8);
    private final String key = app + ":msg:" + UUID.randomUUID();

    @Test
    void aRetryIsAttemptTwoWithItsGapAndAParkedDeliveryIsWrittenOnce() throws Exception {
        RolledBackTransaction.run(c -> {
            OffsetDateTime first = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
            List<RecordedDelivery> rows = CallbackLogInsert.insert(c, List.of(delivery(first, null),
                delivery(first.plusSeconds(5), null)));
            assertEquals(1, rows.get(0).attempt());
            assertNull(rows.get(0).secondsSincePrevious(), "a first delivery has no gap");
            assertEquals(2, rows.get(1).attempt(), "its twin in the same group counts as the retry");
            assertEquals(0, rows.get(1).secondsSincePrevious().compareTo(new java.math.BigDecimal("5")));

            IncomingDelivery parked = delivery(first.plusSeconds(10), null).parked(UUID.randomUUID().toString(), null);
            assertEquals(3, CallbackLogInsert.insert(c, List.of(parked)).get(0).attempt(),
                "the committed rows of the key count: the third delivery");
            assertNull(CallbackLogInsert.insert(c, List.of(parked)).get(0),
                "a parked delivery already written (an interrupted drain) is not written again");

            IncomingDelivery maybe = delivery(first.plusSeconds(11), null).parked(UUID.randomUUID().toString(),
                rows.get(0).callbackLogId());
            assertNull(CallbackLogInsert.insert(c, List.of(maybe)).get(0),
                "nor one whose failed group commit did commit the row it was given");
            assertEquals(3, count(c, key));
        });
    }

    /**
     * The insert goes out in one round trip with its keys' locks, so it must still read the table after the lock
     * was granted: a delivery that waited for another writer's commit of its key counts that row (attempt 2).
     * The holder's row is committed marked published, so the relay leaves it alone, and deleted at the end.
     */
    @Test
    void aDeliveryThatWaitedForItsKeysLockCountsTheRowTheHolderCommitted() throws Exception {
        OffsetDateTime first = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
        try (Connection holder = StackEnv.openDatabase(); Connection waiter = StackEnv.openDatabase()) {
            holder.setAutoCommit(false);
            waiter.setAutoCommit(false);
            CompletableFuture<RecordedDelivery> retry = null;
            try {
                assertEquals(1, CallbackLogInsert.insert(holder, List.of(delivery(first, null))).get(0).attempt());
                long waiterPid = backendPid(waiter);
                retry = CompletableFuture.supplyAsync(() -> {
                    try {
                        return CallbackLogInsert.insert(waiter, List.of(delivery(first.plusSeconds(5), null))).get(0);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertTrue(Poll.until(Duration.ofSeconds(30), () -> waitsForALock(waiterPid)),
                    "the retry's insert waits for the key's lock held by the first delivery's writer");

                try (PreparedStatement published = holder.prepareStatement(
                        "UPDATE callback_log SET published_at = now() WHERE event_key = ?")) {
                    published.setString(1, key);
                    published.executeUpdate();
                }
                holder.commit();

                RecordedDelivery second = retry.get(30, TimeUnit.SECONDS);
                assertEquals(2, second.attempt(), "the row committed while the retry waited is counted");
                assertEquals(0, second.secondsSincePrevious().compareTo(new java.math.BigDecimal("5")));
            } finally {
                holder.rollback(); // frees a retry still waiting, if the test failed before the commit
                if (retry != null) {
                    retry.handle((row, failure) -> row).get(30, TimeUnit.SECONDS);
                }
                waiter.rollback();
                try (PreparedStatement gone = holder.prepareStatement("DELETE FROM callback_log WHERE event_key = ?")) {
                    gone.setString(1, key);
                    gone.executeUpdate();
                }
                holder.commit();
            }
        }
    }

    private static long backendPid(Connection c) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT pg_backend_pid()"); ResultSet rs = q.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean waitsForALock(long pid) {
        try (Connection c = StackEnv.openDatabase();
             PreparedStatement q = c.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
            q.setLong(1, pid);
            try (ResultSet rs = q.executeQuery()) {
                return rs.next() && "Lock".equals(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void eachRelayLaneTakesItsWaitingRowsOldestFirstAsMessagesAndMarksThemPublished() throws Exception {
        RolledBackTransaction.run(c -> {
            List<RecordedDelivery> rows = deliveredTwice(c, 1);
            long firstId = rows.get(0).callbackLogId();
            long secondId = rows.get(1).callbackLogId();
            OffsetDateTime at = OffsetDateTime.now(ZoneOffset.UTC);
            long textId = CallbackLogInsert.insert(c, List.of(new IncomingDelivery(app, "ww-it", "1000002", "q",
                "<xml>raw</xml>", "<xml>text</xml>", "text", "text", null, app + ":msg:" + UUID.randomUUID(),
                at.toString(), at, "127.0.0.1", null, null))).get(0).callbackLogId();
            assertTrue(UnpublishedRows.backlog(c)[0] >= 3, "counted in the backlog");

            // every waiting row, with room for others committed meanwhile: the stack may have a backlog of its own
            int all = (int) UnpublishedRows.backlog(c)[0] + 1_000;
            Set<String> lane = Set.of("change_external_contact");
            List<EventEnvelope> waiting = ours(UnpublishedRows.takeOfTypes(c, lane, all), firstId, secondId, textId);
            assertEquals(List.of(firstId, secondId), waiting.stream().map(EventEnvelope::callbackLogId).toList(),
                "the lane's two, in id order, without the text message that came after them");
            EventEnvelope message = waiting.get(0);
            assertEquals(app, message.app());
            assertEquals(key, message.eventKey());
            assertEquals("change_external_contact", message.eventType());
            assertEquals(1, message.attempt());
            assertEquals("<xml>plain</xml>", message.body());

            assertEquals(List.of(firstId, secondId, textId), ours(UnpublishedRows.takeOtherThan(c, Set.of(), all),
                firstId, secondId, textId).stream().map(EventEnvelope::callbackLogId).toList(),
                "without a deadline lane, one loop takes every row in id order");
            List<EventEnvelope> others = ours(UnpublishedRows.takeOtherThan(c, lane, all), firstId, secondId, textId);
            assertEquals(List.of(textId), others.stream().map(EventEnvelope::callbackLogId).toList(),
                "the other lane takes the text message only");
            assertEquals("text", others.get(0).eventType());

            UnpublishedRows.markPublished(c, waiting);
            UnpublishedRows.markPublished(c, others);
            assertEquals(0, one(c, "SELECT count(*) FROM callback_log WHERE app = ? AND published_at IS NULL", app));
        });
    }

    /**
     * Each mark leaves a dead entry in the unpublished indexes until a vacuum; a bitmap scan would visit the heap
     * page of every one at every take (23 ms a take after five minutes at 200/s), a plain index scan skips them
     * once it has seen them. Whatever the statistics say, the takes never read through a bitmap, and the setting
     * ends with the take: left on, it made the mark's lookup by id a sequential scan.
     */
    @Test
    void theRelaysTakesNeverReadThroughABitmapAndTheMarkAfterThemPlansAsUsual() throws Exception {
        RolledBackTransaction.run(c -> {
            for (String take : List.of(UnpublishedRows.SELECT_OF_TYPES, UnpublishedRows.SELECT_OTHERS)) {
                StringBuilder plans = new StringBuilder();
                try (PreparedStatement explain = c.prepareStatement(
                        UnpublishedRows.withoutBitmap("EXPLAIN (FORMAT JSON) " + take))) {
                    explain.setArray(1, c.createArrayOf("text", new Object[] {"change_external_contact"}));
                    explain.setInt(2, 500);
                    ResultSets.each(explain, (number, rs) -> {
                        rs.next();
                        plans.append(rs.getString(1));
                    });
                }
                String plan = plans.isEmpty() ? null : plans.toString();
                assertTrue(plan != null && plan.contains("Index Scan"), "reads the unpublished rows through an index: "
                    + plan);
                assertFalse(plan.contains("Bitmap"), "never through a bitmap: " + plan);
            }
            try (PreparedStatement show = c.prepareStatement("SHOW enable_bitmapscan");
                 ResultSet rs = show.executeQuery()) {
                rs.next();
                assertEquals("on", rs.getString(1), "the rest of the relay's transaction plans as configured");
            }
        });
    }

    private static List<EventEnvelope> ours(List<EventEnvelope> taken, Long... ids) {
        List<Long> wanted = List.of(ids);
        return taken.stream().filter(e -> wanted.contains(e.callbackLogId())).toList();
    }

    @Test
    void aReplayReadsEachSelectedEventFromItsFirstDeliveryWhicheverDeliveryMatched() throws Exception {
        RolledBackTransaction.run(c -> {
            List<RecordedDelivery> rows = deliveredTwice(c, 5);
            long firstId = rows.get(0).callbackLogId();

            List<FirstDelivery> events = CallbackLogEvents.firstDeliveries(c, new DeliveryFilter(null, null, null,
                null, null, List.of(rows.get(1).callbackLogId())), 10);
            assertEquals(List.of(new FirstDelivery(firstId, key, "change_external_contact",
                events.get(0).receivedAt(), false)), events, "the retry selects its event, read from attempt 1");

            Map<Long, EventEnvelope> messages = CallbackLogEvents.messages(c, new Long[] {firstId, -1L});
            assertEquals(1, messages.size(), "an id without a row is absent");
            assertEquals(key, messages.get(firstId).eventKey());
        });
    }

    @Test
    void theStatisticsCountThisAppsDeliveriesRetriesAndSpans() throws Exception {
        RolledBackTransaction.run(c -> {
            // an odd second nine days back: no other test writes there, and the 10 s bucket holds only these rows
            OffsetDateTime past = OffsetDateTime.now(ZoneOffset.UTC).minusDays(9).minusHours(7)
                .truncatedTo(ChronoUnit.MINUTES).plusSeconds(3);
            CallbackLogInsert.insert(c, List.of(delivery(past, null), delivery(past.plusSeconds(5), null),
                delivery(past.plus(Duration.ofMillis(15_500)), null)));

            Repeats repeats = CallbackLogStatistics.repeatsSince(c, past.minusMinutes(1).toInstant(), app, 10);
            assertEquals(new Repeats(3, 1, 1, 15.5, 15.5, 15.5), repeats);

            Map<Long, IngestBucket> buckets = CallbackLogStatistics.ingest(c, past.minusSeconds(3).toInstant(), 10, 10);
            long bucket = past.minusSeconds(3).toEpochSecond();
            assertEquals(new IngestBucket(2, 1), buckets.get(bucket), "two deliveries in [:00, :10), one a retry");
            assertEquals(new IngestBucket(1, 1), buckets.get(bucket + 10));

            // an hour ahead: the most recent retried key whatever the stack is receiving now
            OffsetDateTime ahead = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
            String later = app + ":msg:later";
            CallbackLogInsert.insert(c, List.of(delivery(ahead, later), delivery(ahead.plusSeconds(5), later)));
            KeyTimeline timeline = CallbackLogStatistics.timelines(c, Instant.now().minus(Duration.ofMinutes(1)), 1, 5)
                .get(0);
            assertEquals(later, timeline.eventKey());
            assertEquals(app, timeline.app());
            assertEquals(List.of(1, 2), timeline.deliveries().stream().map(KeyTimeline.Delivery::attempt).toList());
            assertEquals(5.0, timeline.deliveries().get(1).offsetSeconds());
            assertEquals(5.0, timeline.deliveries().get(1).secondsSincePrevious());

            // the retry-rate gauge's read: per app and 30 s bucket, the deliveries and the first ones among them
            List<CallbackLogStatistics.AppBucket> ahead30s = CallbackLogStatistics.byAppAndBucket(c,
                ahead.minusSeconds(30).toInstant(), 30, 10).stream().filter(b -> b.app().equals(app)).toList();
            assertEquals(2, ahead30s.stream().mapToLong(CallbackLogStatistics.AppBucket::deliveries).sum(),
                "both deliveries ahead, and none of the earlier ones");
            assertEquals(1, ahead30s.stream().mapToLong(CallbackLogStatistics.AppBucket::firstDeliveries).sum(),
                "the key counted once, by its first delivery");
            assertTrue(ahead30s.stream().allMatch(b -> b.bucketStartEpochSecond() % 30 == 0), "aligned on 30 s");
        });
    }

    /** This test's key delivered now and again {@code gapSeconds} later, in one group. */
    private List<RecordedDelivery> deliveredTwice(Connection c, int gapSeconds) throws SQLException {
        OffsetDateTime at = OffsetDateTime.now(ZoneOffset.UTC);
        return CallbackLogInsert.insert(c, List.of(delivery(at, null), delivery(at.plusSeconds(gapSeconds), null)));
    }

    private IncomingDelivery delivery(OffsetDateTime receivedAt, String eventKey) {
        return new IncomingDelivery(app, "ww-it", "1000002", "q", "<xml>raw</xml>", "<xml>plain</xml>", "event",
            "change_external_contact", "add_external_contact", eventKey == null ? key : eventKey,
            receivedAt.toString(), receivedAt, "127.0.0.1", null, null);
    }

    private long count(Connection c, String eventKey) throws SQLException {
        return one(c, "SELECT count(*) FROM callback_log WHERE event_key = ?", eventKey);
    }

    private long one(Connection c, String sql) throws SQLException {
        return one(c, sql, key);
    }

    private static long one(Connection c, String sql, String eventKey) throws SQLException {
        try (PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, eventKey);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
