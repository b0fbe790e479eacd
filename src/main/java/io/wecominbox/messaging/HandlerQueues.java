package io.wecominbox.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Queue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The queue of a handler by its name ({@link JndiNames#handlerQueue}), looked up once: for work that publishes
 * straight to chosen handlers instead of through the events topic (replays, reconcile passes).
 */
@ApplicationScoped
public class HandlerQueues {

    private final Map<String, Queue> queues = new ConcurrentHashMap<>();

    public Queue of(String handler) {
        return queues.computeIfAbsent(handler, name -> {
            String jndi = JndiNames.handlerQueue(name);
            try {
                return (Queue) new InitialContext().lookup(jndi);
            } catch (NamingException e) {
                throw new IllegalStateException("no queue " + jndi + " for handler " + name + " (server.xml)", e);
            }
        });
    }
}
