package io.wecominbox;

/** What a log line or a status says about a failure: its innermost cause, never a payload or a stack trace. */
public final class Failures {

    private Failures() {
    }

    /** The class and message of the innermost cause: enough to diagnose, and it carries no payload. */
    public static String rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }
}
