package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.api.WelcomeCodes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What became of one step's WelcomeCodes, read from the fake API (the only party that knows, as WeCom is for a
 * real app): sent (used within its 20 s), expired (its 20 s from CreateTime passed unused: the app called too
 * late, answered 41050, or never called), still pending; and the latency from the event's due time (when WeCom
 * sent the callback) to the API call that sent it.
 */
record WelcomeOutcome(int adds, int sent, int expired, int pending, int answeredExpired,
                      LatencySamples.Summary latency) {

    static WelcomeOutcome of(List<MixFeed.Planned> planned, WelcomeCodes codes, Instant now) {
        LatencySamples latency = new LatencySamples();
        int adds = 0;
        int sent = 0;
        int expired = 0;
        int pending = 0;
        int answeredExpired = 0;
        for (MixFeed.Planned p : planned) {
            if (p.welcomeCode() == null) {
                continue;
            }
            adds++;
            WelcomeCodes.State state = codes.state(p.welcomeCode()).orElse(null);
            if (state == null) {
                pending++; // never registered: the fake API was not told (no API here)
            } else if (state.used()) {
                sent++;
                latency.add(Duration.between(p.due(), state.usedAt()).toNanos());
            } else if (now.isAfter(state.expiresAt())) {
                expired++;
                if (state.sendAttempts() > 0) {
                    answeredExpired++; // the app did call, after the 20 s: WeCom's 41050
                }
            } else {
                pending++;
            }
        }
        return new WelcomeOutcome(adds, sent, expired, pending, answeredExpired, latency.summary());
    }
}
