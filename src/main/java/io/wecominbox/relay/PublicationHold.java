package io.wecominbox.relay;

import io.wecominbox.messaging.EventEnvelope;
import java.util.List;

/**
 * The moment between a row's commit and its publication. Does nothing in the product; the test deployment
 * decorates it to stop there, so a kill -9 can land exactly between the two.
 */
public interface PublicationHold {

    void beforePublishing(List<EventEnvelope> rows) throws InterruptedException;
}
