package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AckLogTest {

    @Test
    void eachFirstAttemptIsALineWithItsDueInstantAndLatencyBlankWhenUnanswered(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("acks.csv");
        Instant before = Instant.now();
        long due = System.nanoTime();
        try (AckLog log = new AckLog(file)) {
            log.firstAttempt(500, due, 12_345_678);
            log.firstAttempt(500, due + 2_000_000, -1);
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(AckLog.HEADER, lines.get(0));
        assertEquals(3, lines.size());
        String[] answered = lines.get(1).split(",", -1);
        assertEquals("500", answered[0]);
        assertEquals("12.35", answered[2]);
        Instant dueAt = Instant.parse(answered[1]);
        assertTrue(Duration.between(before, dueAt).abs().compareTo(Duration.ofSeconds(5)) < 0,
                "due instant on the wall clock: " + dueAt);
        String[] unanswered = lines.get(2).split(",", -1);
        assertEquals("", unanswered[2]);
        assertEquals(Duration.ofMillis(2), Duration.between(dueAt, Instant.parse(unanswered[1])));
    }

    @Test
    void anAnswerAfterTheRunEndedIsDropped(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("acks.csv");
        AckLog log = new AckLog(file);
        log.close();
        log.firstAttempt(100, System.nanoTime(), 1_000_000);
        assertEquals(List.of(AckLog.HEADER), Files.readAllLines(file));
    }
}
