package io.wecominbox.ops.replay;

/** A replay request the server refuses as it stands (answered 400 with this message as the reason). */
public class InvalidReplayRequest extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidReplayRequest(String reason) {
        super(reason);
    }
}
