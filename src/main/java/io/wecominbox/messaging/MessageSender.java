package io.wecominbox.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import java.util.Map;

/**
 * Sends JMS messages on the request path (the callback's ACK, the probe). Called inside a JTA transaction,
 * the resource adapter enlists the session as an XA branch, so the message is sent when (and only when) the
 * database writes commit. Background work sends through {@link BackgroundMessageSender} instead.
 */
@ApplicationScoped
public class MessageSender {

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    public void send(Destination destination, String body, Map<String, ?> properties) {
        sendWith(connectionFactory, destination, body, properties);
    }

    static void sendWith(ConnectionFactory factory, Destination destination, String body, Map<String, ?> properties) {
        try (JMSContext context = factory.createContext()) {
            JMSProducer producer = context.createProducer();
            properties.forEach(producer::setProperty);
            producer.send(destination, body);
        }
    }
}
