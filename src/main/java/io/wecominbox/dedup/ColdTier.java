package io.wecominbox.dedup;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable dedup store: a row under a unique key, inserted in the consumer's XA transaction so that the
 * claim, the handler's writes and sends, and the consumed message commit or roll back together.
 */
public interface ColdTier {

    ColdClaim claim(ColdRecord record);

    /**
     * Claims distinct keys together (one statement where the store can): each key's answer. STORE_DOWN for
     * all of them when the store cannot be reached at all.
     */
    default Map<String, ColdClaim> claimAll(List<ColdRecord> records) {
        Map<String, ColdClaim> claims = new HashMap<>();
        for (ColdRecord record : records) {
            claims.put(record.dedupKey(), claim(record));
        }
        return claims;
    }
}
