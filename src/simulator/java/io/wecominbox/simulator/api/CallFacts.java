package io.wecominbox.simulator.api;

import java.util.LinkedHashMap;
import java.util.Map;

/** What an endpoint learned about a call, for the call log; filled in as the endpoint goes. */
final class CallFacts {
    String app;
    String corpId;
    String welcomeCode;
    String touser;
    String content;
    /** message/send: WeCom's duplicate check dropped this identical message (answered, not delivered). */
    boolean duplicateSuppressed;
    final Map<String, String> extraFields = new LinkedHashMap<>();
}
