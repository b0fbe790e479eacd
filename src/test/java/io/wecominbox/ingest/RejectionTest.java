package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RejectionTest {

    @ParameterizedTest
    @EnumSource(value = Rejection.class, names = {"APP_MISCONFIGURED", "APP_OVER_LIMIT", "INGEST_BEHIND"},
        mode = EnumSource.Mode.EXCLUDE)
    void clientMistakesAreNeverA5xx(Rejection rejection) {
        assertEquals(4, rejection.status() / 100, rejection.name());
    }

    @Test
    void statusesFollowTheContract() {
        assertEquals(401, Rejection.BAD_SIGNATURE.status());
        assertEquals(401, Rejection.MISSING_SIGNATURE.status());
        assertEquals(404, Rejection.UNKNOWN_APP.status());
        assertEquals(413, Rejection.BODY_TOO_LARGE.status());
        assertEquals(503, Rejection.APP_MISCONFIGURED.status(), "our mistake: WeCom should retry once it is fixed");
        assertEquals(503, Rejection.APP_OVER_LIMIT.status(), "WeCom's own traffic shed: it should retry later");
        assertEquals(503, Rejection.INGEST_BEHIND.status(), "shed while the writers are behind: WeCom retries");
        assertEquals(429, Rejection.SOURCE_OVER_LIMIT.status(), "one address over its share");
        for (Rejection r : Set.of(Rejection.MALFORMED_XML, Rejection.FORBIDDEN_XML, Rejection.MISSING_ENCRYPT,
                Rejection.BAD_BASE64, Rejection.BAD_PADDING, Rejection.WRONG_RECEIVER)) {
            assertEquals(400, r.status(), r.name());
        }
    }

    @Test
    void codesAreUniqueAndFitTheAuditColumn() {
        Set<String> codes = Arrays.stream(Rejection.values()).map(Rejection::code).collect(Collectors.toSet());
        assertEquals(Rejection.values().length, codes.size());
        codes.forEach(c -> assertTrue(c.matches("[a-z0-9_]{3,40}"), c));
    }
}
