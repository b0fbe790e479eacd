package io.wecominbox.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DedupKeyTest {

    @Test
    void keyAlwaysNamesTheHandler() {
        assertEquals("wecom:crm:customer:msg:42", DedupKey.of("crm", "customer:msg:42", null));
    }

    @Test
    void aBatchIdIsAppended() {
        assertEquals("wecom:crm:customer:msg:42:replay-7", DedupKey.of("crm", "customer:msg:42", "replay-7"));
    }

    @Test
    void aHandlerCannotLeaveItsNameOut() {
        assertThrows(IllegalArgumentException.class, () -> DedupKey.of("", "customer:msg:42", null));
        assertThrows(IllegalArgumentException.class, () -> DedupKey.of(null, "customer:msg:42", null));
        assertThrows(IllegalArgumentException.class, () -> DedupKey.of("crm:x", "customer:msg:42", null));
    }

    @Test
    void anEventWithoutKeyOrABadBatchIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DedupKey.of("crm", " ", null));
        assertThrows(IllegalArgumentException.class, () -> DedupKey.of("crm", "k", "a b"));
    }
}
