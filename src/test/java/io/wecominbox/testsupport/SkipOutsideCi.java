package io.wecominbox.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A suite that needs something of the stack it may not have (a broker or Redis it started itself, a database it
 * can restart, a browser): on a developer's machine it is skipped with the reason; under CI ({@code CI=true},
 * as .ci/run and CI services set it) the same skip is a failure, since CI's machine is one where every suite can
 * run and a skipped one there would pass without proving anything.
 */
public final class SkipOutsideCi {

    private SkipOutsideCi() {
    }

    /** Goes on when {@code condition} holds; else skips with {@code reason}, or fails under CI=true. */
    public static void assumeOrFailInCi(boolean condition, String reason) {
        assumeOrFail(condition, reason, System.getenv("CI"));
    }

    /** Skips with {@code reason}, or fails under CI=true: never returns normally. */
    public static void unavailable(String reason) {
        assumeOrFail(false, reason, System.getenv("CI"));
    }

    /** The decision, with the value of CI as the caller read it (null: not set). */
    static void assumeOrFail(boolean condition, String reason, String ci) {
        if (condition) {
            return;
        }
        if ("true".equals(ci)) {
            Assertions.fail(reason + " (CI=true: a suite that cannot run here fails instead of being skipped)");
        }
        Assumptions.abort("SKIPPED: " + reason);
    }
}
