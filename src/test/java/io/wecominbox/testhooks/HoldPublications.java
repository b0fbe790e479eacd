package io.wecominbox.testhooks;

import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.relay.PublicationHold;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * TEST SWITCH, test deployment only: while {@code wecom.chaos.hold-publication.marker} is set, the relay stops
 * before publishing a batch holding an event whose plaintext contains it, with the rows committed and unpublished,
 * so that a kill -9 lands between commit and publish. Read on every call: a restart without it publishes.
 */
@Decorator
@Priority(Interceptor.Priority.APPLICATION)
public abstract class HoldPublications implements PublicationHold {

    private static final Logger LOG = Logger.getLogger(HoldPublications.class.getName());

    @Inject
    @Delegate
    PublicationHold hold;

    @Override
    public void beforePublishing(List<EventEnvelope> rows) throws InterruptedException {
        Optional<String> marker = ConfigProvider.getConfig()
            .getOptionalValue("wecom.chaos.hold-publication.marker", String.class).filter(m -> !m.isBlank());
        if (marker.isPresent() && rows.stream().anyMatch(r -> r.body().contains(marker.get()))) {
            LOG.warning("CHAOS SWITCH ON: the relay holds " + rows.size() + " committed rows unpublished until the"
                + " server is killed (test deployment)");
            Thread.sleep(Long.MAX_VALUE);
        }
        hold.beforePublishing(rows);
    }
}
