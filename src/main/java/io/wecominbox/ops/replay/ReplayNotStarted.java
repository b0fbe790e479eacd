package io.wecominbox.ops.replay;

/** The server refused to run a replay's background task: its row is FAILED, the POST answers 503. */
public class ReplayNotStarted extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long replayId;

    public ReplayNotStarted(long replayId, String reason, Throwable cause) {
        super(reason, cause);
        this.replayId = replayId;
    }

    public long replayId() {
        return replayId;
    }
}
