package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdminLockoutTest {

    private static final Duration WINDOW = Duration.ofSeconds(300);
    private static final String ADMIN = "user:admin-key";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AdminLockout lockout = new AdminLockout(5, 8, WINDOW, clock);

    @Test
    void fiveWrongPasswordsFromOneSourceLockItAndOnlyIt() {
        for (int i = 1; i <= 4; i++) {
            assertEquals(List.of(), lockout.failed("10.0.0.1", ADMIN), "failure " + i);
        }
        assertEquals(List.of(AdminLockout.SOURCE), lockout.failed("10.0.0.1", ADMIN));
        assertEquals(Optional.of(new AdminLockout.Refusal(300, AdminLockout.SOURCE)), lockout.refusal("10.0.0.1", ADMIN),
                "refused with the right password too: the password is not looked at");
        assertEquals(Optional.empty(), lockout.refusal("10.0.0.2", ADMIN), "another source logs in");
        assertTrue(lockout.refusal("10.0.0.1", null).isPresent(), "without a user name the source's lock holds too");
    }

    @Test
    void wrongPasswordsForOneNameFromManySourcesLockTheName() {
        List<String> last = List.of();
        for (int i = 1; i <= 8; i++) {
            last = lockout.failed("10.0.1." + i, ADMIN);
        }
        assertEquals(List.of(AdminLockout.USER), last, "the eighth, from an eighth address");
        assertEquals(AdminLockout.USER, lockout.refusal("10.0.9.9", ADMIN).orElseThrow().scope(),
                "a fresh address with that name is refused");
        assertEquals(Optional.empty(), lockout.refusal("10.0.9.9", "user:someone-else"));
    }

    @Test
    void aRightPasswordClearsTheSourceButNotTheName() {
        for (int i = 0; i < 4; i++) {
            lockout.failed("10.0.0.1", ADMIN);
        }
        lockout.succeeded("10.0.0.1");
        assertEquals(List.of(), lockout.failed("10.0.0.1", ADMIN), "the source counts from one again");
        // the name has 5 failures now; 3 more from elsewhere lock it, though the source logged in meanwhile
        lockout.failed("10.0.0.2", ADMIN);
        lockout.failed("10.0.0.3", ADMIN);
        assertEquals(List.of(AdminLockout.USER), lockout.failed("10.0.0.4", ADMIN));
    }

    @Test
    void theRefusalNamesTheLongerLockInWholeSecondsRoundedUp() {
        for (int i = 0; i < 5; i++) {
            lockout.failed("10.0.0.1", "user:a");
        }
        clock.advance(Duration.ofMillis(100_500));
        for (int i = 2; i <= 9; i++) {
            lockout.failed("10.0.2." + i, ADMIN);
        }
        assertEquals(new AdminLockout.Refusal(300, AdminLockout.USER), lockout.refusal("10.0.0.1", ADMIN).orElseThrow());
        assertEquals(new AdminLockout.Refusal(200, AdminLockout.SOURCE), lockout.refusal("10.0.0.1", null).orElseThrow(),
                "199.5 s left: 200, never 199");
        clock.advance(Duration.ofMillis(199_400));
        assertEquals(1, lockout.refusal("10.0.0.1", null).orElseThrow().retryAfterSeconds(), "never 0");
    }

    @Test
    void theLocksRunOut() {
        for (int i = 0; i < 5; i++) {
            lockout.failed("10.0.0.1", ADMIN);
        }
        clock.advance(WINDOW);
        assertEquals(Optional.empty(), lockout.refusal("10.0.0.1", ADMIN));
    }
}
