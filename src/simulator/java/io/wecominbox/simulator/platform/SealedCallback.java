package io.wecominbox.simulator.platform;

/**
 * The exact bytes of one callback on the wire: the outer XML body and the query string
 * ({@code msg_signature=..&timestamp=..&nonce=..}, already URL-encoded). Computed once per event so that
 * every re-send is byte-identical, as WeCom's are.
 */
public record SealedCallback(String body, String query) {
}
