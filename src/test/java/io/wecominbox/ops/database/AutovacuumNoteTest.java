package io.wecominbox.ops.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class AutovacuumNoteTest {

    @Test
    void autovacuumOffIsNotedWithTheTablesItHurtsAndWhereTheDbaReadsOn() {
        String note = AutovacuumNote.note("off").orElseThrow();
        assertTrue(note.contains("autovacuum off"), note);
        assertTrue(note.contains("wecom_tranlog") && note.contains("callback_log"), note);
        assertTrue(note.contains("docs/dba.md"), note);
        assertEquals(AutovacuumNote.note("off"), AutovacuumNote.note(" OFF\n"));
    }

    @Test
    void autovacuumOnSaysNothing() {
        assertEquals(Optional.empty(), AutovacuumNote.note("on"));
    }
}
