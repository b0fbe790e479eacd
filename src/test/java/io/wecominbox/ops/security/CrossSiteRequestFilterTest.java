package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

class CrossSiteRequestFilterTest {

    private static final URI REQUEST = URI.create("http://127.0.0.1:9080/api/ops/probes");

    @Test
    void theServersOwnOriginIsSameOrigin() {
        assertTrue(CrossSiteRequestFilter.sameOrigin("http://127.0.0.1:9080", REQUEST));
        // behind a TLS-terminating proxy the browser's scheme and port differ from what the server sees
        assertTrue(CrossSiteRequestFilter.sameOrigin("https://wecom.example.com", URI.create("http://wecom.example.com:9080/api/x")));
    }

    @Test
    void anotherHostOrAnOpaqueOriginIsForeign() {
        assertFalse(CrossSiteRequestFilter.sameOrigin("http://evil.example:9080", REQUEST));
        assertFalse(CrossSiteRequestFilter.sameOrigin("null", REQUEST));
    }
}
