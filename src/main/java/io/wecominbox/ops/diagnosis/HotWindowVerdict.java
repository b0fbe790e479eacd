package io.wecominbox.ops.diagnosis;

/** How one handler's configured hot window compares with the hot window the measured retry span implies. */
public enum HotWindowVerdict {
    /** At least 3 × the P99 span. */
    COVERS,
    /** Between 2 × and 3 × the P99 span: covers the measured retries with less room than recommended (warning). */
    WITHIN_IMPLIED,
    /** Below 2 × the P99 span: retries regularly arrive after the Redis key is gone (warning). */
    SHORTER_THAN_IMPLIED,
    /** Hot window 0: the operator switched the hot tier off, every repeat goes to the cold tier by design. */
    NO_HOT_TIER,
    /** Naturally idempotent handler: no dedup record, so no window to compare. */
    NOT_APPLICABLE,
    /** No event was delivered more than once in the period: nothing to compare with. */
    NO_DATA
}
