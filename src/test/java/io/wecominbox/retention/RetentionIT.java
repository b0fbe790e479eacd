package io.wecominbox.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReplayApi;
import io.wecominbox.testsupport.Sql;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The retention job on the running server, through the admin API as an operator runs it: old content erased
 * with the audit columns kept, old rows gone, a whole old month of callback_log dropped, the months ahead made,
 * erased events refused for replay, and the run visible in the view, the metrics and the API's answer.
 * Every row it plants is already published, so the relay never touches them.
 */
@ExtendWith(ArquillianExtension.class)
class RetentionIT {

    private final String app = "it-ret-" + UUID.randomUUID().toString().substring(0, 8);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void aRunErasesOldContentDropsOldRowsAndAWholeOldMonthAndRefusesToReplayWhatItErased() {
        String erasedKey = app + ":msg:erased";
        long erasable = callbackLog(erasedKey, "now() - interval '40 days'");
        long recent = callbackLog(app + ":msg:recent", "now() - interval '1 day'");
        Sql.text("SELECT callback_log_month_partition(now() - interval '400 days')");
        String oldMonth = Sql.text("SELECT 'callback_log_p' || to_char((now() - interval '400 days') AT TIME ZONE 'UTC',"
            + " 'YYYYMM')");
        long ancient = callbackLog(app + ":msg:ancient", "now() - interval '400 days'");
        conversation("old-content", "now() - interval '40 days'");
        conversation("gone", "now() - interval '200 days'");
        Sql.update("INSERT INTO bot_reply_log (dedup_key, app, msg_id, to_user, attempt_count, status,"
            + " duplicate_check, recorded_at) VALUES (?, ?, 'm', 'u', 1, 'SENT', false, now() - interval '200 days')",
            "wecom:bot:" + app + ":gone", app);
        Sql.update("INSERT INTO callback_rejection VALUES (date_trunc('hour', now() - interval '10 days'), ?,"
            + " 'bad_signature', 3, now(), now(), '203.0.113.9', 'a sample')", app);
        Sql.update("INSERT INTO callback_rejection VALUES (date_trunc('hour', now() - interval '100 days'), ?,"
            + " 'bad_signature', 3, now(), now(), '203.0.113.9', 'a sample')", app);

        JsonObject run = runNow();

        assertEquals("", Sql.text("SELECT plaintext || raw_body FROM callback_log WHERE callback_log_id = ?", erasable),
            "content of a delivery 40 days old is erased");
        assertEquals(erasedKey, Sql.text("SELECT event_key FROM callback_log WHERE callback_log_id = ? AND attempt = 1"
            + " AND content_erased_at IS NOT NULL", erasable), "its audit columns stay");
        assertEquals("<xml>kept</xml>", Sql.text("SELECT plaintext FROM callback_log WHERE callback_log_id = ?", recent));
        assertEquals(0, Sql.count("SELECT count(*) FROM callback_log WHERE callback_log_id = ?", ancient),
            "the 400-day-old delivery is gone");
        assertNull(Sql.text("SELECT to_regclass(?)::text", oldMonth), oldMonth + " was dropped: " + run);
        assertEquals("true", Sql.text("SELECT (to_regclass('callback_log_p' || to_char((now() + interval '2 months')"
            + " AT TIME ZONE 'UTC', 'YYYYMM')) IS NOT NULL)::text"), "the months ahead are made: " + run);

        assertEquals("erased", Sql.text("SELECT CASE WHEN content IS NULL AND plaintext = '' AND content_erased_at"
            + " IS NOT NULL THEN 'erased' END FROM conversation_message WHERE app = ? AND msg_id = 'old-content'", app));
        assertEquals(0, Sql.count("SELECT count(*) FROM conversation_message WHERE app = ? AND msg_id = 'gone'", app));
        assertEquals(0, Sql.count("SELECT count(*) FROM bot_reply_log WHERE app = ?", app));
        assertEquals(1, Sql.count("SELECT count(*) FROM callback_rejection WHERE app = ? AND sample IS NULL"
            + " AND last_remote_addr IS NULL", app), "the 10-day-old sample and address erased, the counts kept");
        assertEquals(1, Sql.count("SELECT count(*) FROM callback_rejection WHERE app = ?", app),
            "the 100-day-old bucket deleted");

        // what was erased cannot be replayed: the operator is told why
        HttpResponse<String> replay = ReplayApi.post("{\"eventKeys\":[\"" + erasedKey + "\"],\"reason\":\"RetentionIT\"}");
        assertEquals(400, replay.statusCode(), replay.body());
        assertTrue(replay.body().contains("content was erased"), replay.body());

        // observable: the policy in force and nothing of ours left due; the metrics
        assertEquals("30 days", Sql.text("SELECT erase_after::text FROM retention_due WHERE table_name = 'callback_log'"));
        assertEquals(0, Sql.count("SELECT count(*) FROM callback_log WHERE app = ? AND content_erased_at IS NULL"
            + " AND received_at < now() - interval '30 days'", app));
        HttpResponse<String> due = Http.getAsAdmin("/api/ops/retention");
        assertEquals(200, due.statusCode(), due.body());
        assertTrue(due.body().contains("\"table_name\":\"conversation_message\""), due.body());
        HttpResponse<String> scraped = Http.applicationMetrics();
        assertEquals(200, scraped == null ? -1 : scraped.statusCode(), "/metrics over TLS");
        String metrics = scraped.body();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("wecom_retention_rows_total{")
            && l.contains("action=\"erased\"") && l.contains("table=\"callback_log\"")),
            metrics.lines().filter(l -> l.contains("retention")).toList().toString());
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("wecom_cleanup_runs_total{")
            && l.contains("job=\"retention\"") && l.contains("result=\"ok\"")), "the dashboard's cleanup panel");
    }

    /** POST /api/ops/retention/runs until this node runs it (the hourly run may hold the lock a moment). */
    private static JsonObject runNow() {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> {
            last.set(Http.postAsAdmin("/api/ops/retention/runs"));
            return last.get() != null && last.get().statusCode() == 200;
        }), "retention run: " + (last.get() == null ? "no answer" : last.get().statusCode() + " " + last.get().body()));
        return ReplayApi.json(last.get().body());
    }

    private long callbackLog(String eventKey, String receivedAt) {
        return Long.parseLong(Sql.text("INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body,"
            + " plaintext, event_type, event_key, attempt, outcome, published_at) VALUES (" + receivedAt + ", ?, 'ww-it',"
            + " 'q', '<xml>raw</xml>', '<xml>kept</xml>', 'text', ?, 1, 'ENQUEUED', now()) RETURNING callback_log_id",
            app, eventKey));
    }

    private void conversation(String msgId, String storedAt) {
        Sql.update("INSERT INTO conversation_message (app, msg_id, msg_type, content, plaintext, stored_at)"
            + " VALUES (?, ?, 'text', 'hello', '<xml>hello</xml>', " + storedAt + ")", app, msgId);
    }
}
