package io.wecominbox.ops.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchedulingGroupsNoteTest {

    @Test
    void groupingOnWithALocalDatabaseIsNotedWithWhatToDo() {
        String note = SchedulingGroupsNote.note(Optional.of("1\n"), "127.0.0.1").orElseThrow();
        assertTrue(note.contains("sysctl kernel.sched_autogroup_enabled=0"), note);
        assertTrue(note.contains("docs/deploy.md"), note);
        assertTrue(SchedulingGroupsNote.note(Optional.of("1"), "localhost").isPresent());
        assertTrue(SchedulingGroupsNote.note(Optional.of("1"), "::1").isPresent());
    }

    @Test
    void groupingOffOrAbsentOrADatabaseElsewhereSaysNothing() {
        assertFalse(SchedulingGroupsNote.note(Optional.of("0\n"), "127.0.0.1").isPresent());
        assertFalse(SchedulingGroupsNote.note(Optional.empty(), "127.0.0.1").isPresent());
        assertFalse(SchedulingGroupsNote.note(Optional.of("1"), "db.example.com").isPresent());
        assertFalse(SchedulingGroupsNote.note(Optional.of("1"), "10.0.0.5").isPresent());
        assertFalse(SchedulingGroupsNote.note(Optional.of("1"), "").isPresent());
    }
}
