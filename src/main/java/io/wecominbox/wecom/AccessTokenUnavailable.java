package io.wecominbox.wecom;

/** No access token for the app before the deadline; the outcome says why and whether to retry. */
final class AccessTokenUnavailable extends Exception {

    private final transient WeComCallOutcome outcome;

    AccessTokenUnavailable(WeComCallOutcome outcome) {
        // No stack trace: an expected, frequent condition, not a bug.
        super(outcome.toString(), null, false, false);
        this.outcome = outcome;
    }

    WeComCallOutcome outcome() {
        return outcome;
    }
}
