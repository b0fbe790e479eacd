package io.wecominbox.ops.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Poll;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The background checks' cadence: a check that is UP runs once per its period, one that is DOWN every second. */
class ProbedInBackgroundTest {

    private final ScheduledThreadPoolExecutor threads = new ScheduledThreadPoolExecutor(2);
    private final ProbedInBackground background = new ProbedInBackground();
    private final AtomicInteger probes = new AtomicInteger();

    @BeforeEach
    void scheduleOnPlainThreads() {
        background.scheduler = (ManagedScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                try {
                    return method.invoke(threads, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    @AfterEach
    void stop() {
        background.stop();
        threads.shutdownNow();
    }

    private Supplier<HealthFinding> counted(AtomicBoolean up) {
        return () -> {
            probes.incrementAndGet();
            return up.get() ? HealthFinding.named("routes").up() : HealthFinding.named("routes").down("routes_missing");
        };
    }

    @Test
    void aCheckThatIsUpIsProbedOnceInItsPeriodAndStaysUpMeanwhile() {
        Supplier<HealthFinding> probe = counted(new AtomicBoolean(true));
        assertTrue(background.latest("routes", 60, probe).up());
        Poll.sleep(3_500); // three ticks of the background schedule
        assertTrue(background.latest("routes", 60, probe).up(), "the skipped ticks keep the finding fresh");
        assertEquals(1, probes.get(), "one probe in 3.5 s with a 60 s period");
    }

    @Test
    void aCheckThatIsDownIsProbedEverySecondWhateverItsPeriod() {
        AtomicBoolean up = new AtomicBoolean(false);
        Supplier<HealthFinding> probe = counted(up);
        assertFalse(background.latest("routes", 60, probe).up());
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> probes.get() >= 3), "probed again while DOWN: " + probes);
        up.set(true);
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> background.latest("routes", 60, probe).up()),
            "UP again at the next tick once the dependency is back");
    }

    @Test
    void aCheckWithoutAPeriodIsProbedEverySecond() {
        Supplier<HealthFinding> probe = counted(new AtomicBoolean(true));
        assertTrue(background.latest("database", probe).up());
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> probes.get() >= 3), "probed every tick: " + probes);
    }
}
