package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.testing.MutableClock;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The admin login's order of checks, against a fake container: TLS, then the lockout, then the password, then the role. */
class AdminLoginFilterTest {

    private static final String RIGHT = "Basic " + Base64.getEncoder().encodeToString("op-7c1:right-e41".getBytes(StandardCharsets.UTF_8));
    private static final String WRONG = "Basic " + Base64.getEncoder().encodeToString("op-7c1:guess-93b".getBytes(StandardCharsets.UTF_8));

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final Map<String, AtomicLong> lockouts = new HashMap<>();
    private AdminLoginFilter filter;

    /** What the fake container saw and answered for one request. */
    static final class Exchange {
        boolean secure = true;
        String remoteAddr = "10.0.0.1";
        String authorization;
        boolean admin = true;
        int authenticateCalls;
        boolean chained;
        int status = 200;
        final Map<String, String> headers = new HashMap<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        String body() {
            return body.toString(StandardCharsets.UTF_8);
        }
    }

    @BeforeEach
    void setUp() {
        AdminLoginGuard guard = new AdminLoginGuard();
        guard.requiresTls = true;
        guard.sourceFailures = 3;
        guard.userFailures = 10;
        guard.lockoutSeconds = 60;
        guard.clock = clock;
        guard.registry = registry();
        guard.init();
        filter = new AdminLoginFilter();
        filter.guard = guard;
    }

    private Exchange send(Exchange e) throws Exception {
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setStatus" -> { e.status = (Integer) args[0]; yield null; }
                    case "setHeader" -> { e.headers.put((String) args[0], (String) args[1]); yield null; }
                    case "getOutputStream" -> new ServletOutputStream() {
                        @Override public boolean isReady() { return true; }
                        @Override public void setWriteListener(WriteListener listener) { }
                        @Override public void write(int b) { e.body.write(b); }
                    };
                    default -> null;
                });
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isSecure" -> e.secure;
                    case "getRemoteAddr" -> e.remoteAddr;
                    case "getHeader" -> "Authorization".equalsIgnoreCase((String) args[0]) ? e.authorization : null;
                    case "authenticate" -> {
                        e.authenticateCalls++;
                        if (RIGHT.equals(e.authorization)) {
                            yield true;
                        }
                        e.status = 401; // what the container answers: its Basic challenge
                        e.headers.put("WWW-Authenticate", "Basic realm=\"WeCom Inbox\"");
                        yield false;
                    }
                    case "isUserInRole" -> e.admin && AdminLoginFilter.ADMIN_ROLE.equals(args[0]);
                    default -> null;
                });
        filter.doFilter(request, response, (req, res) -> e.chained = true);
        return e;
    }

    private Exchange attempt(String address, String authorization) throws Exception {
        Exchange e = new Exchange();
        e.remoteAddr = address;
        e.authorization = authorization;
        return send(e);
    }

    @Test
    void theAdministratorGetsThrough() throws Exception {
        Exchange e = attempt("10.0.0.1", RIGHT);
        assertTrue(e.chained);
        assertEquals(200, e.status);
    }

    @Test
    void overPlainHttpNothingIsAskedForNorChecked() throws Exception {
        Exchange e = new Exchange();
        e.secure = false;
        e.authorization = RIGHT;
        send(e);
        assertEquals(403, e.status);
        assertTrue(e.body().contains("\"tls_required\""), e.body());
        assertNull(e.headers.get("WWW-Authenticate"), "no challenge: a browser would send the password in clear");
        assertEquals(0, e.authenticateCalls, "the password is not looked at");
        assertFalse(e.chained);
    }

    @Test
    void withoutCredentialsTheContainerChallengesAndNothingIsCounted() throws Exception {
        for (int i = 0; i < 5; i++) {
            Exchange e = attempt("10.0.0.1", null);
            assertEquals(401, e.status);
            assertTrue(e.headers.get("WWW-Authenticate").startsWith("Basic"));
        }
        assertTrue(attempt("10.0.0.1", RIGHT).chained, "asking is not guessing");
    }

    @Test
    void afterThreeWrongPasswordsEvenTheRightOneIsRefusedUntilTheLockRunsOut() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(401, attempt("10.0.0.1", WRONG).status);
        }
        Exchange locked = attempt("10.0.0.1", RIGHT);
        assertEquals(429, locked.status);
        assertEquals("60", locked.headers.get("Retry-After"));
        assertTrue(locked.body().contains("\"locked_out\""), locked.body());
        assertEquals(0, locked.authenticateCalls, "a locked source's password is not checked");
        assertFalse(locked.chained);
        assertEquals(1, lockouts.get("source").get(), "one lockout counted");

        assertTrue(attempt("10.0.0.2", RIGHT).chained, "another source is not affected");

        clock.advance(Duration.ofSeconds(60));
        assertTrue(attempt("10.0.0.1", RIGHT).chained, "the lock ran out");
    }

    @Test
    void aRightPasswordBetweenMistakesStartsTheSourcesCountOver() throws Exception {
        attempt("10.0.0.1", WRONG);
        attempt("10.0.0.1", WRONG);
        assertTrue(attempt("10.0.0.1", RIGHT).chained);
        attempt("10.0.0.1", WRONG);
        attempt("10.0.0.1", WRONG);
        assertTrue(attempt("10.0.0.1", RIGHT).chained, "two plus two mistakes are not four");
    }

    @Test
    void aUserWhoIsNotAnAdministratorIsRefusedAndNotCounted() throws Exception {
        for (int i = 0; i < 4; i++) {
            Exchange e = new Exchange();
            e.authorization = RIGHT;
            e.admin = false;
            send(e);
            assertEquals(403, e.status);
            assertTrue(e.body().contains("\"not_admin\""), e.body());
            assertFalse(e.chained);
        }
        assertTrue(attempt("10.0.0.1", RIGHT).chained, "a right password is no failure");
    }

    @Test
    void theErrorBodiesNeverEchoTheCredentials() throws Exception {
        for (int i = 0; i < 3; i++) {
            attempt("10.0.0.1", WRONG);
        }
        Exchange locked = attempt("10.0.0.1", WRONG);
        assertEquals(429, locked.status);
        assertFalse(locked.body().contains("op-7c1") || locked.body().contains("guess-93b"), locked.body());
    }

    /** A MetricRegistry that only hands out counters, recorded by their "lock" tag. */
    private MetricRegistry registry() {
        return (MetricRegistry) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MetricRegistry.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("counter")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    String lock = "none";
                    for (Object arg : args) {
                        if (arg instanceof Tag[] tags) {
                            for (Tag t : tags) {
                                lock = t.getTagName().equals("lock") ? t.getTagValue() : lock;
                            }
                        }
                    }
                    AtomicLong count = lockouts.computeIfAbsent(lock, k -> new AtomicLong());
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Counter.class},
                            (c, m, a) -> switch (m.getName()) {
                                case "inc" -> { count.addAndGet(a == null ? 1 : (Long) a[0]); yield null; }
                                case "getCount" -> count.get();
                                default -> null;
                            });
                });
    }
}
