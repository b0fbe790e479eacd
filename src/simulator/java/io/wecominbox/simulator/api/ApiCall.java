package io.wecominbox.simulator.api;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One call the API side received. {@code errcode} is the result the simulator reached, even when a fault
 * hid it from the caller (slow answer, connection dropped after the effect); it is empty when nothing was
 * attempted (HTTP 5xx, connection dropped before the effect). {@code httpStatus} is what the caller saw,
 * 0 for a dropped connection. The access token itself is not kept.
 *
 * @param app          the app the call was made for (from the token or the secret), empty if unknown
 * @param welcomeCode  for send_welcome_msg
 * @param touser       for message/send
 * @param content      text content of either message
 * @param extraFields  top-level request fields not listed above, as raw JSON
 * @param fault        the fault injected into this call, if any
 * @param duplicateSuppressed message/send only: WeCom's duplicate check dropped it (answered 0, not delivered)
 */
public record ApiCall(String path, Optional<String> app, Optional<String> corpId, String body, int httpStatus,
                      Optional<Integer> errcode, Instant at, Optional<String> welcomeCode,
                      Optional<String> touser, Optional<String> content, Map<String, String> extraFields,
                      Optional<ApiFault> fault, boolean duplicateSuppressed) {

    /** True when the caller got errcode 0 over HTTP 200. */
    public boolean succeeded() {
        return httpStatus == 200 && errcode.orElse(-999) == WeComErrors.OK;
    }
}
