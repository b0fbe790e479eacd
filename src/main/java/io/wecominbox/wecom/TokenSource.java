package io.wecominbox.wecom;

import java.time.Instant;

/** Fetches a new access token for an app; one call, no retries (the cache decides those). */
@FunctionalInterface
interface TokenSource {

    TokenFetch fetch(WeComCredentials credentials, Instant deadline);
}
