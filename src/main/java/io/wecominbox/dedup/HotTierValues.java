package io.wecominbox.dedup;

/** The value stored under a hot key: who claimed it, and whether that claim has committed. */
final class HotTierValues {

    private static final String CLAIM = "claim:";
    private static final String DONE = "done:";

    private HotTierValues() {
    }

    static String claim(String owner) {
        return CLAIM + owner;
    }

    static String done(String owner) {
        return DONE + owner;
    }

    /** How a claim attempt reads the value already there (null = the attempt set it). */
    static HotClaim interpret(String existing, String owner) {
        if (existing == null || existing.equals(claim(owner))) {
            return HotClaim.CLAIMED;
        }
        return existing.startsWith(DONE) ? HotClaim.DONE : HotClaim.HELD_BY_OTHER;
    }
}
