package io.wecominbox.simulator.platform;

import io.wecominbox.simulator.config.WeComApp;

/** Turns a plaintext event into what WeCom puts on the wire for that app (encrypted and signed). */
@FunctionalInterface
public interface CallbackSealer {

    SealedCallback seal(WeComApp app, SimEvent event);
}
