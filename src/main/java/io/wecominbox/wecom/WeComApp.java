package io.wecominbox.wecom;

import io.wecominbox.crypto.WeComCrypto;
import java.util.Objects;

/**
 * One configured WeCom app as the ingest needs it: its name in the callback URL, the CorpID (the receiveid
 * every message must carry), the AgentID and the crypto built from its token and EncodingAESKey.
 * Holds no secret in plain sight: the token and key live only inside {@link WeComCrypto}.
 */
public record WeComApp(String name, String corpId, String agentId, WeComCrypto crypto) {

    public WeComApp {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(corpId, "corpId");
        Objects.requireNonNull(crypto, "crypto");
    }
}
