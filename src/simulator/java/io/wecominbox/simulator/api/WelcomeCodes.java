package io.wecominbox.simulator.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WelcomeCodes the platform has issued: each may be used once, within 20 s of its event's CreateTime.
 * The clock is injected so tests can step past the window without sleeping.
 */
public final class WelcomeCodes {

    public static final Duration VALIDITY = Duration.ofSeconds(20);

    /** What the platform knows about one code. */
    public record State(String code, String app, Instant eventCreateTime, Instant expiresAt,
                        Instant usedAt, int sendAttempts) {
        public boolean used() {
            return usedAt != null;
        }
    }

    private final Clock clock;
    private final Map<String, State> codes = new ConcurrentHashMap<>();

    public WelcomeCodes(Clock clock) {
        this.clock = clock;
    }

    public void register(String app, String code, Instant eventCreateTime) {
        codes.put(code, new State(code, app, eventCreateTime, eventCreateTime.plus(VALIDITY), null, 0));
    }

    /**
     * Tries to use the code now: 0 when this call sends the welcome message, otherwise the errcode WeCom
     * gives (41049 missing, 41050 unknown or expired, 41051 already used). Atomic per code.
     */
    public int use(String code) {
        if (code == null || code.isEmpty()) {
            return WeComErrors.WELCOME_CODE_MISSING;
        }
        Instant now = clock.instant();
        int[] result = {WeComErrors.WELCOME_CODE_INVALID};
        codes.computeIfPresent(code, (c, s) -> {
            if (s.used()) {
                result[0] = WeComErrors.EXTERNAL_USER_STARTED_CHATTING;
                return withAttempt(s, s.usedAt());
            }
            if (now.isAfter(s.expiresAt())) {
                result[0] = WeComErrors.WELCOME_CODE_INVALID; // what WeCom answers for expired is unconfirmed
                return withAttempt(s, null);
            }
            result[0] = WeComErrors.OK;
            return withAttempt(s, now);
        });
        return result[0];
    }

    public Optional<State> state(String code) {
        return Optional.ofNullable(codes.get(code));
    }

    public int size() {
        return codes.size();
    }

    public void clear() {
        codes.clear();
    }

    private static State withAttempt(State s, Instant usedAt) {
        return new State(s.code(), s.app(), s.eventCreateTime(), s.expiresAt(), usedAt, s.sendAttempts() + 1);
    }
}
