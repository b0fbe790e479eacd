package io.wecominbox.wecom;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;

/**
 * Access tokens per app. A token is fetched again once {@code tokenRefreshRatio} of its lifetime has
 * passed; one fetch at a time per app, and callers that need a token meanwhile wait for that fetch (never
 * past their deadline) or, while the old token is still valid, keep using it. Repeated gettoken failures
 * make the app back off: WeCom blocks an app for an hour after too many of them.
 */
public final class AccessTokenCache {

    private static final Logger LOG = Logger.getLogger(AccessTokenCache.class.getName());

    private final TokenSource source;
    private final WeComApiSettings settings;
    private final Clock clock;
    private final Map<String, AppTokens> apps = new ConcurrentHashMap<>();

    AccessTokenCache(TokenSource source, WeComApiSettings settings, Clock clock) {
        this.source = source;
        this.settings = settings;
        this.clock = clock;
    }

    /** A token for the app, fetched if needed. */
    String token(WeComCredentials credentials, Instant deadline) throws AccessTokenUnavailable {
        AppTokens app = apps.computeIfAbsent(credentials.app(), a -> new AppTokens());
        CachedToken cached = app.cached.get();
        Instant now = clock.instant();
        if (cached != null && cached.fresh(now)) {
            return cached.token;
        }
        if (cached != null && cached.valid(now)) {
            if (!app.fetchLock.tryLock()) {
                return cached.token; // someone is refreshing; the old token still works meanwhile
            }
        } else if (!now.isBefore(deadline)) {
            throw unavailable(Kind.RETRY, "deadline passed before the call");
        } else if (!lockBefore(app.fetchLock, deadline)) {
            throw unavailable(Kind.RETRY, "waited for another caller's gettoken until the deadline");
        }
        try {
            return fetchLocked(credentials, app, deadline);
        } finally {
            app.fetchLock.unlock();
        }
    }

    /** Drops the token WeCom refused, unless another caller has already replaced it. */
    void invalidate(String app, String token) {
        AppTokens state = apps.get(app);
        if (state != null) {
            state.cached.updateAndGet(c -> c != null && c.token.equals(token) ? null : c);
        }
    }

    private String fetchLocked(WeComCredentials credentials, AppTokens app, Instant deadline)
            throws AccessTokenUnavailable {
        Instant now = clock.instant();
        CachedToken cached = app.cached.get();
        if (cached != null && cached.fresh(now)) {
            return cached.token; // fetched by the caller we waited for
        }
        boolean oldStillValid = cached != null && cached.valid(now);
        if (app.blocked(now)) {
            if (oldStillValid) {
                return cached.token;
            }
            throw unavailable(Kind.RETRY, "gettoken backing off after " + app.consecutiveFailures
                    + " failed calls, until " + app.blockedUntil);
        }
        WeComCallOutcome last = null;
        Duration pause = settings.gettokenBusyPause();
        for (int attempt = 0; attempt <= settings.gettokenBusyRetries(); attempt++) {
            if (attempt > 0 && !sleepBefore(pause, deadline)) {
                break;
            }
            pause = pause.multipliedBy(2);
            Instant fetchedAt = clock.instant();
            TokenFetch fetch = source.fetch(credentials, deadline);
            if (fetch instanceof TokenFetch.Issued issued) {
                app.cached.set(CachedToken.of(issued, fetchedAt, settings.tokenRefreshRatio()));
                app.consecutiveFailures = 0;
                app.blockedUntil = null;
                LOG.info(() -> "WeCom access token fetched for app " + credentials.app() + ", expires in "
                        + issued.expiresIn().toSeconds() + " s");
                return issued.token();
            }
            TokenFetch.Refused refused = (TokenFetch.Refused) fetch;
            last = refused.outcome();
            if (!refused.attempted()) {
                break;
            }
            recordFailure(credentials.app(), app, last);
            if (last.kind() != Kind.RETRY || app.blocked(clock.instant())) {
                break;
            }
        }
        if (oldStillValid && cached.valid(clock.instant())) {
            return cached.token; // refresh failed, but the old token has not expired yet
        }
        throw new AccessTokenUnavailable(last);
    }

    private void recordFailure(String appName, AppTokens app, WeComCallOutcome outcome) {
        app.consecutiveFailures++;
        LOG.warning(() -> "gettoken for app " + appName + " failed (" + app.consecutiveFailures
                + " in a row): " + outcome);
        int beyond = app.consecutiveFailures - settings.failuresBeforeBackoff();
        if (beyond >= 0) {
            Duration backoff = settings.backoffInitial().multipliedBy(1L << Math.min(beyond, 20));
            backoff = backoff.compareTo(settings.backoffMax()) > 0 ? settings.backoffMax() : backoff;
            app.blockedUntil = clock.instant().plus(backoff);
            Duration logged = backoff;
            LOG.warning(() -> "gettoken for app " + appName + " backs off for " + logged.toMillis()
                    + " ms: WeCom blocks an app for an hour after too many failed gettoken calls");
        }
    }

    private boolean lockBefore(ReentrantLock lock, Instant deadline) {
        long millis = Duration.between(clock.instant(), deadline).toMillis();
        try {
            return millis > 0 && lock.tryLock(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Sleeps unless the pause would leave no time for the call after it. */
    private boolean sleepBefore(Duration pause, Instant deadline) {
        Duration left = Duration.between(clock.instant(), deadline).minus(pause);
        if (left.compareTo(WeComHttp.MIN_USEFUL_TIME) < 0) {
            return false;
        }
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static AccessTokenUnavailable unavailable(Kind kind, String why) {
        return new AccessTokenUnavailable(WeComCallOutcome.local(kind, why, 0, false));
    }

    /** One app's token and gettoken history; the mutable fields are guarded by fetchLock. */
    private static final class AppTokens {
        final ReentrantLock fetchLock = new ReentrantLock();
        final AtomicReference<CachedToken> cached = new AtomicReference<>();
        int consecutiveFailures;
        Instant blockedUntil;

        boolean blocked(Instant now) {
            return blockedUntil != null && now.isBefore(blockedUntil);
        }
    }

    /** A token with the time to fetch a new one and the time it stops being usable. */
    private static final class CachedToken {
        final String token;
        final Instant refreshAt;
        final Instant validUntil;

        private CachedToken(String token, Instant refreshAt, Instant validUntil) {
            this.token = token;
            this.refreshAt = refreshAt;
            this.validUntil = validUntil;
        }

        /** Keeps a margin before WeCom's expiry for clock skew and the time a call takes. */
        static CachedToken of(TokenFetch.Issued issued, Instant fetchedAt, double refreshRatio) {
            long lifetimeMillis = issued.expiresIn().toMillis();
            return new CachedToken(issued.token(), fetchedAt.plusMillis((long) (lifetimeMillis * refreshRatio)),
                    fetchedAt.plusMillis((long) (lifetimeMillis * 0.95)));
        }

        boolean fresh(Instant now) {
            return now.isBefore(refreshAt);
        }

        boolean valid(Instant now) {
            return now.isBefore(validUntil);
        }

        @Override
        public String toString() {
            return "CachedToken[refreshAt=" + refreshAt + ", validUntil=" + validUntil + "]";
        }
    }
}
