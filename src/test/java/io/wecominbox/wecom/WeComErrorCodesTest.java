package io.wecominbox.wecom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WeComErrorCodesTest {

    @ParameterizedTest(name = "errcode {0} -> {1}")
    @CsvSource({
            "0, DONE",
            "41051, ALREADY_DONE",
            "-1, RETRY", "41096, RETRY", "45009, RETRY", "45033, RETRY",
            "40001, RETRY", "40014, RETRY", "42001, RETRY",
            "41049, GIVE_UP", "41050, GIVE_UP", "40058, GIVE_UP", "60020, GIVE_UP"})
    void errcodeMapsToWhatTheCallerDoesNext(int errcode, Kind expected) {
        assertEquals(expected, WeComErrorCodes.classify(errcode));
    }
}
