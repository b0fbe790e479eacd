package io.wecominbox.wecom;

import java.util.Optional;

/** Where the client finds an app's corp id, secret and agent id; empty when the app has none configured. */
@FunctionalInterface
public interface AppCredentials {

    Optional<WeComCredentials> find(String app);
}
