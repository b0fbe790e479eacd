package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class CrossSiteRequestFilterTest {

    private static final String SERVER = "http://127.0.0.1:9080";
    private static final String BROKER_CONSOLE = "http://127.0.0.1:8161";
    private final CrossSiteCheck check = new CrossSiteCheck(Set.of());

    private static CrossSiteCheck.BrowserRequest post(String rawPath, String origin) {
        return new CrossSiteCheck.BrowserRequest("POST", "/", URI.create(SERVER + rawPath), origin, null, null);
    }

    private static CrossSiteCheck.BrowserRequest withFetchSite(String origin, String fetchSite) {
        return new CrossSiteCheck.BrowserRequest("POST", "/", URI.create(SERVER + "/api/ops/replay"), origin, null,
                fetchSite);
    }

    @Test
    void theServersOwnPagesMayChangeThings() {
        assertFalse(check.isForeign(post("/api/ops/replay", SERVER)));
        assertFalse(check.isForeign(post("/api/ops/replay", "HTTP://127.0.0.1:9080")), "scheme and host case");
    }

    @Test
    void aPageOnAnotherPortOfTheSameHostIsForeign() {
        // the broker console or the simulator on this host: same host, other port (the reported hole)
        assertTrue(check.isForeign(post("/api/ops/replay", BROKER_CONSOLE)));
    }

    @Test
    void anotherSchemeOrHostIsForeign() {
        assertTrue(check.isForeign(post("/api/ops/replay", "https://127.0.0.1:9080")));
        assertTrue(check.isForeign(post("/api/ops/replay", "http://evil.example:9080")));
        assertTrue(check.isForeign(post("/api/ops/replay", "http://127.0.0.1.evil.example:9080")));
    }

    @Test
    void defaultPortsCountAsWrittenOut() {
        CrossSiteCheck.BrowserRequest r = new CrossSiteCheck.BrowserRequest("POST", "/",
                URI.create("https://wecom.example.com/api/ops/replay"), "https://wecom.example.com:443", null, null);
        assertFalse(check.isForeign(r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "", "not a url", "file:///etc/passwd", "http://"})
    void anOpaqueOrGarbageOriginIsForeign(String origin) {
        assertTrue(check.isForeign(post("/api/ops/replay", origin)), origin);
    }

    @Test
    void withoutAnOriginTheReferersOriginIsCompared() {
        CrossSiteCheck.BrowserRequest ours = new CrossSiteCheck.BrowserRequest("POST", "/",
                URI.create(SERVER + "/api/ops/replay"), null, SERVER + "/dashboard/", null);
        CrossSiteCheck.BrowserRequest console = new CrossSiteCheck.BrowserRequest("POST", "/",
                URI.create(SERVER + "/api/ops/replay"), null, BROKER_CONSOLE + "/console/", null);
        assertFalse(check.isForeign(ours));
        assertTrue(check.isForeign(console));
    }

    @Test
    void aToolWithNoBrowserHeadersIsNotRefused() {
        assertFalse(check.isForeign(post("/api/ops/replay", null)));
    }

    @Test
    void readsAreNeverRefused() {
        for (String method : List.of("GET", "HEAD", "OPTIONS", "get")) {
            assertFalse(check.isForeign(new CrossSiteCheck.BrowserRequest(method, "/",
                    URI.create(SERVER + "/api/ops/handlers"), BROKER_CONSOLE, null, "cross-site")), method);
        }
    }

    @Test
    void fetchMetadataDecidesWhenTheBrowserSendsIt() {
        assertTrue(check.isForeign(withFetchSite(SERVER, "cross-site")));
        assertTrue(check.isForeign(withFetchSite(BROKER_CONSOLE, "same-site")), "another port is same-site");
        assertTrue(check.isForeign(withFetchSite(SERVER, "same-site")), "same-site is not same-origin");
        assertFalse(check.isForeign(withFetchSite(SERVER, "same-origin")));
        // behind a TLS proxy the server sees http://host:9080 while the browser's page is https://host
        assertFalse(check.isForeign(withFetchSite("https://wecom.example.com", "same-origin")));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/api/ops/replay",
        "/api/../api/ops/replay",
        "//api/ops/replay",
        "/./api/ops/replay",
        "/api;jsessionid=x/ops/replay",
        "/api/ops;x=1/replay",
        "/API/ops/replay",
        "/%61pi/ops/replay",
        "/wecom/callback/../../api/ops/replay",
        "/wecom/callback/customer;/../../api/ops/replay",
        "/wecom/callback/%2e%2e/%2e%2e/api/ops/replay",
        "/wecom/callback/customer%2F..%2F..%2Fapi",
        "/wecom/callback/customer/extra",
        "/wecom/callback/customer%3Bx",
        "/wecom/callback/%ff",
        "/dashboard/anything",
        "/no/such/path",
    })
    void everySpellingOfAStateChangingPathIsChecked(String rawPath) {
        assertTrue(check.isForeign(post(rawPath, BROKER_CONSOLE)), rawPath);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/wecom/callback/customer", "/wecom/callback/customer/", "//wecom/./callback/customer",
        "/api/../wecom/callback/customer"})
    void onlyWeComsCallbackIsExemptItCarriesNoLogin(String rawPath) {
        assertFalse(check.isForeign(post(rawPath, BROKER_CONSOLE)), rawPath);
    }

    @Test
    void theExemptionFollowsTheContextRoot() {
        CrossSiteCheck.BrowserRequest inside = new CrossSiteCheck.BrowserRequest("POST", "/inbox/",
                URI.create(SERVER + "/inbox/wecom/callback/customer"), BROKER_CONSOLE, null, null);
        CrossSiteCheck.BrowserRequest outside = new CrossSiteCheck.BrowserRequest("POST", "/inbox/",
                URI.create(SERVER + "/wecom/callback/customer"), BROKER_CONSOLE, null, null);
        assertFalse(check.isForeign(inside));
        assertTrue(check.isForeign(outside));
    }

    @Test
    void aTrustedOriginPassesForAProxyThatChangesSchemeAndPort() {
        CrossSiteCheck behindProxy = new CrossSiteCheck(Set.of("https://wecom.example.com"));
        URI seenByServer = URI.create("http://wecom.example.com:9080/api/ops/replay");
        assertFalse(behindProxy.isForeign(new CrossSiteCheck.BrowserRequest("POST", "/", seenByServer,
                "https://wecom.example.com", null, null)));
        assertTrue(behindProxy.isForeign(new CrossSiteCheck.BrowserRequest("POST", "/", seenByServer,
                "https://evil.example", null, null)));
        assertTrue(check.isForeign(new CrossSiteCheck.BrowserRequest("POST", "/", seenByServer,
                "https://wecom.example.com", null, null)), "not without the setting");
    }

    @Test
    void pathsResolveAsTheServletContainerResolvesThem() {
        assertEquals(Optional.of(List.of("api", "ops")), RequestPath.segments("/api/../api//./ops;x"));
        assertEquals(Optional.of(List.of()), RequestPath.segments("/../.."));
        assertEquals(Optional.of(List.of("a+b", "c d")), RequestPath.segments("/a+b/c%20d"));
        assertEquals(Optional.empty(), RequestPath.segments("/a%2Fb"), "an encoded separator is ambiguous");
        assertEquals(Optional.empty(), RequestPath.segments("/a%5Cb"));
        assertEquals(Optional.empty(), RequestPath.segments("/a%zz"), "bad percent-encoding");
        assertEquals(Optional.empty(), RequestPath.segments("/%c3"), "not UTF-8");
    }
}
