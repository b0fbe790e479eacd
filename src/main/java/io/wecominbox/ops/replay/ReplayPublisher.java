package io.wecominbox.ops.replay;

import io.wecominbox.callbacklog.CallbackLogEvents;
import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.messaging.HandlerQueues;
import io.wecominbox.messaging.TransactedSender;
import io.wecominbox.messaging.TransactedSender.Outgoing;
import io.wecominbox.ops.replay.ReplayPlan.Item;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceUnit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Publishes one chunk of a replay the way the relay publishes callbacks, without XA: the replay's row is
 * locked (a cancel waits for the chunk in flight, and no chunk starts after a cancel), the messages go out in
 * one local JMS transaction, then the progress counter commits. A crash between the two commits re-sends the
 * chunk when the replay is resumed; every message's duplicate id (replay, handler, row) makes the broker drop it.
 */
@ApplicationScoped
public class ReplayPublisher {

    // resource-local on the non-XA datasource (persistence.xml): the lock and the counter are one local
    // transaction that commits after the chunk's JMS transaction
    @PersistenceUnit(unitName = "wecom-local")
    private EntityManagerFactory local;

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Inject
    private TransactedSender sender;

    @Inject
    private HandlerQueues handlerQueues;

    /** Returns false (and sends nothing) when the replay is no longer RUNNING, e.g. cancelled. */
    public boolean publish(long replayId, String batchId, List<Item> chunk) {
        EntityManager em = local.createEntityManager();
        EntityTransaction tx = em.getTransaction();
        try {
            tx.begin();
            ReplayRunEntry run = em.find(ReplayRunEntry.class, replayId, LockModeType.PESSIMISTIC_WRITE);
            if (run == null || !run.running()) {
                return false;
            }
            Map<Long, EventEnvelope> deliveries = deliveries(chunk);
            List<Outgoing> messages = new ArrayList<>(chunk.size());
            for (Item item : chunk) {
                EventEnvelope d = deliveries.get(item.callbackLogId());
                if (d == null) {
                    throw new IllegalStateException("callback_log " + item.callbackLogId()
                        + " vanished during replay " + replayId);
                }
                messages.add(new Outgoing(handlerQueues.of(item.handler()),
                    d.replayed(replayId, batchId, item.handler())));
            }
            sender.send(messages);
            run.published(chunk.size());
            tx.commit();
            return true;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
            em.close();
        }
    }

    // callback_log rows never change once written (but for published_at): read apart from the lock
    private Map<Long, EventEnvelope> deliveries(List<Item> chunk) {
        Long[] ids = chunk.stream().map(Item::callbackLogId).distinct().toArray(Long[]::new);
        try (Connection c = dataSource.getConnection()) {
            return CallbackLogEvents.messages(c, ids);
        } catch (SQLException e) {
            throw DatabaseFailure.of("replay chunk: callback_log read", e);
        }
    }
}
