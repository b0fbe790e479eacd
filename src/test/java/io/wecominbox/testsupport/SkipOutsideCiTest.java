package io.wecominbox.testsupport;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class SkipOutsideCiTest {

    @Test
    void aMetConditionNeitherSkipsNorFailsWhateverCiSays() {
        assertDoesNotThrow(() -> SkipOutsideCi.assumeOrFail(true, "has a broker", "true"));
        assertDoesNotThrow(() -> SkipOutsideCi.assumeOrFail(true, "has a broker", null));
    }

    @Test
    void anUnmetConditionSkipsWithItsReasonOutsideCi() {
        TestAbortedException skipped = assertThrows(TestAbortedException.class,
            () -> SkipOutsideCi.assumeOrFail(false, "no broker of our own", null));
        assertTrue(skipped.getMessage().contains("no broker of our own"), skipped.getMessage());
        assertThrows(TestAbortedException.class, () -> SkipOutsideCi.assumeOrFail(false, "no broker", "false"));
    }

    @Test
    void anUnmetConditionFailsUnderCiTrue() {
        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
            () -> SkipOutsideCi.assumeOrFail(false, "no broker of our own", "true"));
        assertTrue(failed.getMessage().contains("no broker of our own"), failed.getMessage());
    }
}
