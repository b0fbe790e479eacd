package io.wecominbox.ingest;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;

/**
 * The per-source and per-app limits on callback requests (issue 22; docs/deploy.md, "HTTP limits").
 * <ul>
 *   <li>Per source address, from the request's arrival (before its body: an unsigned client is known only by
 *       its address): in flight and per second. Over either: 429 source_over_limit.</li>
 *   <li>Per app, for signed callbacks only, around their commit: an attacker cannot sign, so cannot use up an
 *       app's share. Over either: 503 app_over_limit, so that WeCom retries.</li>
 * </ul>
 * A node behind a load balancer sees the balancer's address: exempt it (and let the balancer limit per client,
 * as the two-node stack's HAProxy does), or have Liberty take the client's from X-Forwarded-For.
 */
@ApplicationScoped
public class CallbackAdmission {

    /** Keys tracked per limiter: bounds memory under a flood from many addresses. */
    static final int MAX_TRACKED = 50_000;

    @Inject
    IngestSettings settings;

    private RequestLimiter sources;
    private RequestLimiter apps;
    private Set<String> exempt;

    @PostConstruct
    void init() {
        sources = new RequestLimiter(settings.sourceInFlight(), settings.sourcePerSecond(), MAX_TRACKED,
                System::nanoTime);
        apps = new RequestLimiter(settings.appInFlight(), settings.appPerSecond(), MAX_TRACKED, System::nanoTime);
        exempt = settings.exemptSources();
    }

    /** Admits a request from {@code address}, or refuses it; an admitted permit is released when it is answered. */
    RequestLimiter.Permit admitSource(String address) {
        return exempt.contains(address) ? RequestLimiter.Permit.UNLIMITED : sources.acquire(address);
    }

    void releaseSource(RequestLimiter.Permit permit) {
        sources.release(permit);
    }

    RequestLimiter.Permit admitApp(String app) {
        return apps.acquire(app);
    }

    void releaseApp(RequestLimiter.Permit permit) {
        apps.release(permit);
    }
}
