package io.wecominbox.simulator.api;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access tokens handed out by gettoken. A token stays valid for 7200 s unless expired on demand; calls with
 * an expired token get 42001 and with an unknown one 40014, which is what a client's cache must survive.
 */
public final class AccessTokens {

    public static final Duration LIFETIME = Duration.ofSeconds(7200);
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    private record Issued(String app, Instant expiresAt, boolean revoked) { }

    /** Outcome of checking a token: the app it belongs to when errcode is 0. */
    public record Check(int errcode, Optional<String> app) { }

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();

    public AccessTokens(Clock clock) {
        this.clock = clock;
    }

    public String issue(String app) {
        StringBuilder token = new StringBuilder(64);
        for (int i = 0; i < 64; i++) {
            token.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        tokens.put(token.toString(), new Issued(app, clock.instant().plus(LIFETIME), false));
        return token.toString();
    }

    public Check check(String token) {
        if (token == null || token.isEmpty()) {
            return new Check(WeComErrors.ACCESS_TOKEN_MISSING, Optional.empty());
        }
        Issued issued = tokens.get(token);
        if (issued == null) {
            return new Check(WeComErrors.INVALID_ACCESS_TOKEN, Optional.empty());
        }
        if (issued.revoked() || !clock.instant().isBefore(issued.expiresAt())) {
            return new Check(WeComErrors.ACCESS_TOKEN_EXPIRED, Optional.of(issued.app()));
        }
        return new Check(WeComErrors.OK, Optional.of(issued.app()));
    }

    /** Expires one token now (no-op for unknown tokens). */
    public void expire(String token) {
        if (token != null) {
            tokens.computeIfPresent(token, (t, i) -> new Issued(i.app(), i.expiresAt(), true));
        }
    }

    /** Expires every token issued to the app so far; returns how many. */
    public int expireAllOf(String app) {
        int[] count = {0};
        tokens.replaceAll((t, i) -> {
            if (i.app().equals(app) && !i.revoked()) {
                count[0]++;
                return new Issued(i.app(), i.expiresAt(), true);
            }
            return i;
        });
        return count[0];
    }

    public int expireAll() {
        int[] count = {0};
        tokens.replaceAll((t, i) -> {
            if (!i.revoked()) count[0]++;
            return new Issued(i.app(), i.expiresAt(), true);
        });
        return count[0];
    }
}
