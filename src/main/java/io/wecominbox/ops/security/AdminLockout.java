package io.wecominbox.ops.security;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The admin login's lockout, per source address and per user name, decided without a request (unit-tested);
 * {@link AdminLoginFilter} asks it before the password is checked and tells it the outcome after.
 *
 * <ul>
 *   <li>Per source: {@code sourceFailures} wrong passwords from one address within the window lock that address
 *       for the window. A right password from it forgets its failures.</li>
 *   <li>Per user: {@code userFailures} wrong passwords for one user name, from any addresses, lock that name for
 *       the window: guessing spread over many addresses. A right password does not forget these (an operator's
 *       dashboard logs in every few seconds and would wipe them); they run out with the window. Higher than the
 *       source's, since anyone who knows the name can lock it.</li>
 * </ul>
 * A locked source or user is refused before its password is looked at, with the time left.
 */
final class AdminLockout {

    /** A refusal: how many whole seconds until a retry can succeed, and which lock holds it (source or user). */
    record Refusal(long retryAfterSeconds, String scope) {
    }

    static final String SOURCE = "source";
    static final String USER = "user";

    /** Entries kept per scope: bounds memory under a flood of made-up addresses or names. */
    static final int MAX_TRACKED = 10_000;

    private final LoginFailures sources;
    private final LoginFailures users;

    AdminLockout(int sourceFailures, int userFailures, Duration window, Clock clock) {
        this.sources = new LoginFailures(sourceFailures, window, MAX_TRACKED, clock);
        this.users = new LoginFailures(userFailures, window, MAX_TRACKED, clock);
    }

    /** Why a login attempt is refused unheard, or empty. {@code user} is the name's key, null without one. */
    Optional<Refusal> refusal(String source, String user) {
        Optional<Duration> bySource = sources.lockedFor(source);
        Optional<Duration> byUser = user == null ? Optional.empty() : users.lockedFor(user);
        if (bySource.isEmpty() && byUser.isEmpty()) {
            return Optional.empty();
        }
        long sourceLeft = bySource.map(AdminLockout::seconds).orElse(0L);
        long userLeft = byUser.map(AdminLockout::seconds).orElse(0L);
        return Optional.of(sourceLeft >= userLeft ? new Refusal(sourceLeft, SOURCE) : new Refusal(userLeft, USER));
    }

    /** A wrong password; the scopes it locked just now (none, source, user or both). */
    List<String> failed(String source, String user) {
        List<String> locked = new ArrayList<>(2);
        if (sources.failed(source)) {
            locked.add(SOURCE);
        }
        if (user != null && users.failed(user)) {
            locked.add(USER);
        }
        return locked;
    }

    /** A right password from {@code source}. */
    void succeeded(String source) {
        sources.succeeded(source);
    }

    /** Whole seconds, rounded up, at least 1: "Retry-After: 0" would invite an immediate retry that fails. */
    private static long seconds(Duration left) {
        long whole = left.getSeconds() + (left.getNano() > 0 ? 1 : 0);
        return Math.max(1, whole);
    }
}
