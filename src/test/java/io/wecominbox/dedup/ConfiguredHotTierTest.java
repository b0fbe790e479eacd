package io.wecominbox.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A Redis without a password is refused when one is required: nobody unauthenticated can mark events done. */
class ConfiguredHotTierTest {

    @Test
    void aRedisWithoutAPasswordIsRefusedWhenAuthIsRequired() {
        ConfiguredHotTier hot = configured(Optional.empty(), true);
        hot.start();
        assertTrue(hot.refused());
        assertFalse(hot.answers(), "readiness must not see a usable hot tier");
        assertTrue(hot.describe().contains("refused"), hot.describe());
    }

    @Test
    void aRefusedHotTierAnswersStoreDownSoEachHandlersPolicyDecides() {
        RefusedHotTier refused = new RefusedHotTier("redis x refused");
        assertEquals(HotClaim.STORE_DOWN, refused.claim("wecom:crm:k", "owner", Duration.ofMinutes(1)));
    }

    @Test
    void aRedisWithAPasswordIsNotRefused() {
        ConfiguredHotTier hot = configured(Optional.of("s3cret-for-the-test"), true);
        hot.start();
        try {
            assertFalse(hot.refused());
            assertFalse(hot.describe().contains("s3cret"), "the password is never described: " + hot.describe());
        } finally {
            hot.stop();
        }
    }

    private static ConfiguredHotTier configured(Optional<String> password, boolean requireAuth) {
        ConfiguredHotTier hot = new ConfiguredHotTier();
        hot.host = Optional.of("127.0.0.1");
        hot.port = 1; // nothing listens: the test never needs an answer
        hot.password = password;
        hot.database = 0;
        hot.requireAuth = requireAuth;
        hot.timeout = Duration.ofMillis(100);
        hot.breakerOpen = Duration.ofSeconds(1);
        hot.storeMetrics = new StoreMetrics() {
            @Override
            void breakerState(String tier, java.util.function.BooleanSupplier open) {
                // no registry in a unit test
            }
        };
        return hot;
    }
}
