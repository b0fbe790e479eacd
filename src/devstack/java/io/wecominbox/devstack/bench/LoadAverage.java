package io.wecominbox.devstack.bench;

import java.lang.management.ManagementFactory;

/** The 1-minute load average: how busy the (shared) machine was when a phase ended. */
final class LoadAverage {

    private LoadAverage() {
    }

    static double now() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
