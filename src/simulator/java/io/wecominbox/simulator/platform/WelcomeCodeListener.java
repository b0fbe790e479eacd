package io.wecominbox.simulator.platform;

import java.time.Instant;

/** Told about every WelcomeCode the platform hands out, so the API side can honour it exactly once. */
@FunctionalInterface
public interface WelcomeCodeListener {

    WelcomeCodeListener NONE = (app, code, createTime) -> { };

    void issued(String app, String welcomeCode, Instant eventCreateTime);
}
