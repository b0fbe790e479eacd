package io.wecominbox.simulator.api;

import io.wecominbox.simulator.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AccessTokensTest {

    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_700_000_000L));
    private final AccessTokens tokens = new AccessTokens(clock);

    @Test
    void issuedTokenIsValidForItsApp() {
        String token = tokens.issue("customer");

        AccessTokens.Check check = tokens.check(token);
        assertEquals(WeComErrors.OK, check.errcode());
        assertEquals("customer", check.app().orElseThrow());
    }

    @Test
    void expiredOnDemandTokenAnswers42001WhileANewTokenWorks() {
        String old = tokens.issue("customer");
        assertEquals(1, tokens.expireAllOf("customer"));
        String fresh = tokens.issue("customer");

        assertEquals(WeComErrors.ACCESS_TOKEN_EXPIRED, tokens.check(old).errcode());
        assertEquals(WeComErrors.OK, tokens.check(fresh).errcode());
    }

    @Test
    void tokenExpiresAfter7200Seconds() {
        String token = tokens.issue("customer");
        clock.advance(Duration.ofSeconds(7200));

        assertEquals(WeComErrors.ACCESS_TOKEN_EXPIRED, tokens.check(token).errcode());
    }

    @Test
    void unknownTokenAnswers40014AndMissingTokenAnswers41001() {
        assertEquals(WeComErrors.INVALID_ACCESS_TOKEN, tokens.check("nope").errcode());
        assertEquals(WeComErrors.ACCESS_TOKEN_MISSING, tokens.check(null).errcode());
    }

    @Test
    void expiringOneAppLeavesTheOtherAppsTokensValid() {
        String other = tokens.issue("contacts");
        tokens.issue("customer");
        tokens.expireAllOf("customer");

        assertEquals(WeComErrors.OK, tokens.check(other).errcode());
    }
}
