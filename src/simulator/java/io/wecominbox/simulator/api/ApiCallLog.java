package io.wecominbox.simulator.api;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Every API call in arrival order, with the counts tests ask for. Thread-safe. */
public final class ApiCallLog {

    private final ConcurrentLinkedQueue<ApiCall> calls = new ConcurrentLinkedQueue<>();

    void record(ApiCall call) {
        calls.add(call);
    }

    public List<ApiCall> calls() {
        return new ArrayList<>(calls);
    }

    public List<ApiCall> calls(String path) {
        return calls.stream().filter(c -> c.path().equals(path)).toList();
    }

    public long count(String path) {
        return calls.stream().filter(c -> c.path().equals(path)).count();
    }

    public long countWithErrcode(String path, int errcode) {
        return calls.stream().filter(c -> c.path().equals(path) && c.errcode().orElse(Integer.MIN_VALUE) == errcode)
                .count();
    }

    /** How many send_welcome_msg calls with this code actually sent a welcome (answered or not). */
    public long successfulWelcomeSends(String welcomeCode) {
        return calls.stream().filter(c -> c.path().equals(WeComApiPaths.SEND_WELCOME_MSG)
                && c.welcomeCode().filter(welcomeCode::equals).isPresent() && effectPerformed(c)).count();
    }

    /** Welcome messages actually sent, over all codes. */
    public long successfulWelcomeSends() {
        return calls.stream().filter(c -> c.path().equals(WeComApiPaths.SEND_WELCOME_MSG) && effectPerformed(c))
                .count();
    }

    /**
     * message/send calls that delivered a message to this recipient (errcode 0 reached, answered or not; not
     * dropped by WeCom's duplicate check).
     */
    public long deliveredMessages(String touser) {
        return calls.stream().filter(c -> c.path().equals(WeComApiPaths.MESSAGE_SEND)
                && c.touser().filter(touser::equals).isPresent() && effectPerformed(c)).count();
    }

    /**
     * The effect happened when the simulator reached errcode 0, whether or not the caller heard of it, unless
     * WeCom's duplicate check dropped the message.
     */
    private static boolean effectPerformed(ApiCall c) {
        return c.errcode().orElse(Integer.MIN_VALUE) == WeComErrors.OK && !c.duplicateSuppressed();
    }

    public void clear() {
        calls.clear();
    }
}
