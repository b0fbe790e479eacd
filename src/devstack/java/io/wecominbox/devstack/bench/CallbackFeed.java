package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.EventFactory;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SealedCallback;
import io.wecominbox.simulator.platform.WeComCryptoSealer;
import io.wecominbox.simulator.platform.WelcomeCodeListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Unique, realistic callbacks from the simulator's event factory, encrypted and signed per app as WeCom does.
 * Every event is new (a fresh WelcomeCode or MsgId, hence a fresh event key): the ingest does its full first
 * delivery work each time. Sealed ahead of a phase so that AES and SHA-1 do not steal the measured cores; the
 * server refuses a callback sent more than wecom.ingest.timestamp-window-seconds (300 s) after its sealing as a
 * replay, so a phase must send what it sealed within that (the cold phase's restart included).
 */
final class CallbackFeed {

    private final List<WeComApp> apps;
    private final List<EventType> mix;
    private final EventFactory events;
    private final WeComCryptoSealer sealer;
    private long next;

    /** {@code welcomeCodes} hears of each WelcomeCode, so a fake WeCom API can accept the welcome it sends. */
    CallbackFeed(List<WeComApp> apps, List<EventType> mix, long seed, WelcomeCodeListener welcomeCodes) {
        this.apps = List.copyOf(apps);
        this.mix = List.copyOf(mix);
        Clock clock = Clock.systemUTC();
        this.events = new EventFactory(clock, new Random(seed), welcomeCodes);
        this.sealer = new WeComCryptoSealer(clock, new Random(seed + 1));
    }

    /** One callback: the app it is for and its wire form. */
    record Callback(String app, SealedCallback wire) {
    }

    List<Callback> next(int count) {
        List<Callback> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++, next++) {
            WeComApp app = apps.get((int) (next % apps.size()));
            EventType type = mix.get((int) ((next / apps.size()) % mix.size()));
            out.add(new Callback(app.name(), sealer.seal(app, events.create(app, type))));
        }
        return out;
    }
}
