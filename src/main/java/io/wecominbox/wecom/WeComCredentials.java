package io.wecominbox.wecom;

import java.util.Objects;
import java.util.Optional;

/**
 * What gettoken and message/send need for one app. toString() leaves the secret out, so the record can
 * appear in a log line or an assertion message safely.
 */
public record WeComCredentials(String app, String corpId, String secret, Optional<String> agentId) {

    public WeComCredentials {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(corpId, "corpId of app " + app);
        Objects.requireNonNull(secret, "secret of app " + app);
        Objects.requireNonNull(agentId, "agentId of app " + app);
    }

    @Override
    public String toString() {
        return "WeComCredentials[app=" + app + ", corpId=" + corpId + ", agentId=" + agentId.orElse("-") + "]";
    }
}
