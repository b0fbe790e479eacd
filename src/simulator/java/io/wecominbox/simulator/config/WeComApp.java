package io.wecominbox.simulator.config;

import java.util.Objects;

/**
 * One WeCom self-built app as both the platform and the app know it.
 * toString() redacts token, AES key and secret so the record can be logged safely.
 */
public record WeComApp(String name, String corpId, String token, String encodingAesKey,
                       String agentId, String secret) {

    public WeComApp {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(corpId, "corpId of app " + name);
        Objects.requireNonNull(token, "token of app " + name);
        Objects.requireNonNull(encodingAesKey, "encodingAesKey of app " + name);
        Objects.requireNonNull(agentId, "agentId of app " + name);
        Objects.requireNonNull(secret, "secret of app " + name);
    }

    @Override
    public String toString() {
        return "WeComApp[name=" + name + ", corpId=" + corpId + ", agentId=" + agentId + "]";
    }
}
