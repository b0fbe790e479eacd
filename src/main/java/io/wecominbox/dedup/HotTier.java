package io.wecominbox.dedup;

import java.time.Duration;

/**
 * The fast, expiring dedup store in front of the database. An owner is the JMS message id of the delivery:
 * a redelivery of the same message finds its own claim and treats it as its own, so a claim left behind by a
 * crash or a failed release never swallows that message.
 */
public interface HotTier {

    HotClaim claim(String key, String owner, Duration ttl);

    /** After commit: the key is done for {@code ttl}. */
    void markDone(String key, String owner, Duration ttl);

    /** After rollback: drop the claim if it is still ours. */
    void release(String key, String owner);

    /** For logs and the ops endpoint, e.g. "redis 127.0.0.1:6379". */
    String describe();
}
