package io.wecominbox.dedup;

/**
 * The durable dedup store: a row under a unique key, inserted in the consumer's XA transaction so that the
 * claim, the handler's writes and sends, and the consumed message commit or roll back together.
 */
public interface ColdTier {

    ColdClaim claim(ColdRecord record);
}
