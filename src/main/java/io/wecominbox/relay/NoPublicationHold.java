package io.wecominbox.relay;

import io.wecominbox.messaging.EventEnvelope;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** The product's {@link PublicationHold}: publish at once. */
@ApplicationScoped
public class NoPublicationHold implements PublicationHold {

    @Override
    public void beforePublishing(List<EventEnvelope> rows) {
        // nothing to wait for
    }
}
