package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The nice value is read from proc(5)'s stat line, whatever the thread's name holds. */
class ConsumerThreadPriorityTest {

    @Test
    void theNiceValueIsTheNineteenthFieldCountedAfterTheCommandName() {
        String line = "4242 (Thread-3 (acti) S 1 4200 4200 0 -1 4194624 12 0 0 0 7 3 0 0 30 10 61 0 9"
            + " 5000000 1000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 -1 1 0 0 0 0 0";
        assertEquals(OptionalInt.of(10), ConsumerThreadPriority.niceOf(line));
        assertEquals(OptionalInt.of(-5), ConsumerThreadPriority.niceOf(line.replace(" 30 10 61 ", " 15 -5 61 ")));
    }

    @Test
    void consumersAreLoweredOnlyWhereTheOsLowersAThreadAndRaisesItAgain() {
        assertEquals(Optional.empty(), ConsumerThreadPriority.whyNot(0, 10, 0), "root, or RLIMIT_NICE 20");
        assertTrue(ConsumerThreadPriority.whyNot(0, 0, 0).orElseThrow().contains("-XX:ThreadPriorityPolicy=1"),
            "a JVM that keeps priorities to itself");
        assertTrue(ConsumerThreadPriority.whyNot(0, 10, 10).orElseThrow().contains("may not raise a priority again"),
            "an unprivileged process: a lowered thread would stay lowered");
        int unknown = ConsumerThreadPriority.UNKNOWN;
        assertTrue(ConsumerThreadPriority.whyNot(unknown, unknown, unknown).orElseThrow()
            .contains("no thread's nice value"), "no /proc");
        assertEquals(Optional.empty(), ConsumerThreadPriority.whyNot(-1, 10, -1), "a server started at nice -1");
    }

    @Test
    void aLineWithoutItsFieldsGivesNoValue() {
        assertEquals(OptionalInt.empty(), ConsumerThreadPriority.niceOf("4242 (java S 1 2"));
        assertEquals(OptionalInt.empty(), ConsumerThreadPriority.niceOf("no command name here"));
    }

    @Test
    void onLinuxTheCurrentThreadsNiceValueIsRead() {
        if (Files.exists(Path.of("/proc/thread-self/stat"))) {
            assertTrue(ConsumerThreadPriority.currentNice().isPresent());
        } else {
            assertEquals(OptionalInt.empty(), ConsumerThreadPriority.currentNice());
        }
    }
}
