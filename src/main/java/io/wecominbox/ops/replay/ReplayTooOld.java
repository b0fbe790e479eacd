package io.wecominbox.ops.replay;

import io.wecominbox.ops.replay.ReplayPlan.TooOld;
import java.util.List;

/** The selection holds events older than a chosen handler's dedup window: the whole request is refused. */
public class ReplayTooOld extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<TooOld> events;

    public ReplayTooOld(List<TooOld> events) {
        super(events.size() + " selected event/handler pair(s) are older than the handler's cold window");
        this.events = List.copyOf(events);
    }

    public List<TooOld> events() {
        return events;
    }
}
