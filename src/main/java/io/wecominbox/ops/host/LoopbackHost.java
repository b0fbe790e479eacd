package io.wecominbox.ops.host;

import java.util.Locale;

/** Whether a configured host name is this machine's loopback: what stays on the host, and what crosses a network. */
public final class LoopbackHost {

    private LoopbackHost() {
    }

    /** 127.x.x.x, localhost, ::1 (bracketed as in a URI or not); a name that resolves there is not known here. */
    public static boolean is(String host) {
        String h = host == null ? "" : host.strip().toLowerCase(Locale.ROOT);
        return h.startsWith("127.") || h.equals("localhost") || h.equals("::1") || h.equals("[::1]");
    }
}
