package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.EventFactory;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.simulator.platform.WeComCryptoSealer;
import io.wecominbox.simulator.platform.WelcomeCodeListener;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The mix's callbacks for one step, from the simulator's event factory, each created, encrypted and signed for
 * its own due instant before the step starts (AES and SHA-1 then do not steal the measured cores, and the
 * timestamp and CreateTime are those of the send, as WeCom's are). Every event is new.
 */
final class MixFeed {

    /** One planned delivery: due {@code offsetNanos} after the step's start, at wall time {@code due}. */
    record Planned(long offsetNanos, Instant due, EventType type, CallbackFeed.Callback callback, String welcomeCode) {
    }

    private final List<WeComApp> apps;
    private final EventMix mix;
    private final ScheduledClock clock = new ScheduledClock();
    private final EventFactory events;
    private final WeComCryptoSealer sealer;
    private long next;

    /** {@code welcomeCodes} hears of each WelcomeCode with its CreateTime, so the fake API honours it for 20 s. */
    MixFeed(List<WeComApp> apps, EventMix mix, long seed, WelcomeCodeListener welcomeCodes) {
        this.apps = List.copyOf(apps);
        this.mix = mix;
        this.events = new EventFactory(clock, new Random(seed), welcomeCodes);
        this.sealer = new WeComCryptoSealer(clock, new Random(seed + 1));
    }

    /** {@code count} events at {@code ratePerSecond} from {@code start} on. */
    List<Planned> plan(Instant start, double ratePerSecond, int count) {
        List<Planned> out = new ArrayList<>(count);
        long period = (long) (1e9 / ratePerSecond);
        for (int i = 0; i < count; i++, next++) {
            long offset = i * period;
            Instant due = start.plusNanos(offset);
            clock.set(due);
            WeComApp app = apps.get(mix.app(next));
            EventType type = mix.type(next);
            SimEvent event = events.create(app, type);
            out.add(new Planned(offset, due, type, new CallbackFeed.Callback(app.name(), sealer.seal(app, event)),
                    event.welcomeCode()));
        }
        return out;
    }
}
