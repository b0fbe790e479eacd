package io.wecominbox.ingest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The one clock of the ingest: a test can replace it (CDI alternative) to move time. */
@ApplicationScoped
public class ClockProducer {

    @Produces
    Clock clock() {
        return Clock.systemUTC();
    }
}
