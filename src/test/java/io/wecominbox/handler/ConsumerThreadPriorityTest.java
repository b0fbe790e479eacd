package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
