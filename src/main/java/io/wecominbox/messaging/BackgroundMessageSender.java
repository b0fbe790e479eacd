package io.wecominbox.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import java.util.Map;

/**
 * Sends JMS messages for background work (handlers' outbound messages, replays), in the caller's XA
 * transaction like {@link MessageSender}, but from its own connection pool: when the broker goes away the
 * pool is purged connection by connection, so sessions that background work left pooled must not sit in the
 * pool of the callback's ACK path and push its 503 past WeCom's 5 s.
 */
@ApplicationScoped
public class BackgroundMessageSender {

    @Resource(lookup = JndiNames.BACKGROUND_CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    public void send(Destination destination, String body, Map<String, ?> properties) {
        MessageSender.sendWith(connectionFactory, destination, body, properties);
    }
}
