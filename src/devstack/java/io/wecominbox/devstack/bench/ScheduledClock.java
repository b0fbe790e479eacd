package io.wecominbox.devstack.bench;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that reads whatever instant it was last set to: the event factory and the sealer read it, so an event
 * sealed ahead of its step carries the CreateTime and timestamp of the moment it is due to be sent (WeCom's own
 * event time), and its WelcomeCode expires 20 s after that, not after the sealing. Not thread-safe: one feeder.
 */
final class ScheduledClock extends Clock {

    private Instant now = Instant.now();

    void set(Instant instant) {
        this.now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
