package io.wecominbox.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pure parts of a pass: member chunks, page parsing, back-off and pacing. */
class ReconcilePagingTest {

    @Test
    void membersAreCutIntoChunksOfAtMostOneHundred() {
        List<String> members = IntStream.range(0, 250).mapToObj(i -> "m" + i).toList();
        MemberChunks chunks = new MemberChunks(members, 100);
        assertEquals(3, chunks.count());
        assertEquals(100, chunks.chunk(0).size());
        assertEquals("m100", chunks.chunk(1).get(0));
        assertEquals(List.of("m200", "m249"), List.of(chunks.chunk(2).get(0), chunks.chunk(2).get(49)));
        assertThrows(IllegalArgumentException.class, () -> new MemberChunks(members, 101));
        assertEquals(0, new MemberChunks(List.of(), 100).count());
    }

    @Test
    void aPageListsItsRelationshipsAndSaysWhereTheNextStarts() {
        PulledPage page = PulledPage.parse(json("""
            {"errcode":0,"errmsg":"ok","next_cursor":"abc","external_contact_list":[
              {"external_contact":{"external_userid":"wmA","name":"A"},
               "follow_info":{"userid":"lisi","createtime":1733040000,"state":"vip"}},
              {"external_contact":{"name":"no id"},"follow_info":{"userid":"lisi","createtime":1}},
              {"external_contact":{"external_userid":"wmB"},"follow_info":{"userid":"zhangsan"}}]}"""));
        assertEquals(List.of(new PulledPage.Record("lisi", "wmA", Instant.ofEpochSecond(1733040000), "vip"),
            new PulledPage.Record("zhangsan", "wmB", null, null)), page.records());
        assertEquals("abc", page.nextCursor());
        assertNull(PulledPage.parse(json("{\"errcode\":0,\"next_cursor\":\"\"}")).nextCursor(), "last page");
    }

    @Test
    void theMemberListIsSortedAndWithoutRepeats() {
        assertEquals(List.of("a", "b"), PulledPage.members(json("{\"follow_user\":[\"b\",\"a\",\"b\",\"\"]}")));
    }

    @Test
    void backOffDoublesUpToItsMaximumAndGivesUpAfterTheAttempts() {
        Backoff backoff = new Backoff(Duration.ofSeconds(60), Duration.ofMinutes(15), 8);
        assertEquals(Duration.ofSeconds(60), backoff.after(1));
        assertEquals(Duration.ofSeconds(120), backoff.after(2));
        assertEquals(Duration.ofSeconds(480), backoff.after(4));
        assertEquals(Duration.ofMinutes(15), backoff.after(5));
        assertEquals(Duration.ofMinutes(15), backoff.after(60));
        assertFalse(backoff.givesUpAfter(7));
        assertTrue(backoff.givesUpAfter(8));
    }

    @Test
    void callsAreSpacedToTheConfiguredRate() {
        AtomicLong now = new AtomicLong(0);
        CallPacer pacer = new CallPacer(600, now::get);
        assertEquals(Duration.ZERO, pacer.reserve());
        assertEquals(Duration.ofMillis(100), pacer.reserve());
        now.set(Duration.ofMillis(150).toNanos());
        assertEquals(Duration.ofMillis(50), pacer.reserve());
        now.set(Duration.ofSeconds(10).toNanos());
        assertEquals(Duration.ZERO, pacer.reserve(), "an idle pacer does not save up a burst");
        assertEquals(Duration.ofMillis(100), pacer.reserve());
    }

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }
}
