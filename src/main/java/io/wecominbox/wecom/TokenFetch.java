package io.wecominbox.wecom;

import java.time.Duration;

/** What one gettoken call gave. */
sealed interface TokenFetch {

    /** A token and its lifetime. toString() leaves the token out. */
    record Issued(String token, Duration expiresIn) implements TokenFetch {
        @Override
        public String toString() {
            return "Issued[expiresIn=" + expiresIn.toSeconds() + "s]";
        }
    }

    /** No token. {@code attempted}: a request was made (and counts towards WeCom's failed-gettoken limit). */
    record Refused(WeComCallOutcome outcome, boolean attempted) implements TokenFetch {
    }
}
