package io.wecominbox.devstack.bench;

import io.wecominbox.messaging.EventEnvelope;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import java.util.List;

/**
 * A backlog put straight onto handler queues, as the broker's divert leaves it after a burst the consumers could
 * not follow: members' text messages in the ingest's message format ({@link EventEnvelope}), without a
 * callback_log row, committed 500 at a time. Their keys start with {@code {app}:bench:{run}:backlog:}.
 */
final class HandlerBacklog {

    private static final int COMMIT_EVERY = 500;

    private HandlerBacklog() {
    }

    /** {@code total} messages, split evenly over the handlers' queues ({@code wecom.handler.<name>}). */
    static void put(JMSContext transacted, String app, String run, int total, List<String> handlers) {
        if (handlers.isEmpty() || total <= 0) {
            return;
        }
        JMSProducer producer = transacted.createProducer();
        int sent = 0;
        for (int h = 0; h < handlers.size(); h++) {
            Queue queue = transacted.createQueue("wecom.handler." + handlers.get(h));
            int share = total / handlers.size() + (h < total % handlers.size() ? 1 : 0);
            for (int i = 0; i < share; i++) {
                String key = app + ":bench:" + run + ":backlog:" + handlers.get(h) + ":" + i;
                long now = System.currentTimeMillis() / 1000;
                EventEnvelope message = new EventEnvelope(textXml(run, handlers.get(h), i, now), app, "text", null,
                    key, 0L, 1, now, null, null, null, null);
                message.properties().forEach(producer::setProperty);
                producer.send(queue, message.body());
                if (++sent % COMMIT_EVERY == 0) {
                    transacted.commit();
                }
            }
        }
        transacted.commit();
    }

    static String textXml(String run, String handler, int i, long createTime) {
        return "<xml><ToUserName><![CDATA[bench]]></ToUserName><FromUserName><![CDATA[bench.member" + (i % 50)
            + "]]></FromUserName><CreateTime>" + createTime + "</CreateTime><MsgType><![CDATA[text]]></MsgType>"
            + "<Content><![CDATA[backlog " + handler + " " + i + "]]></Content><MsgId>"
            + Math.abs((run + handler).hashCode()) + String.format("%08d", i) + "</MsgId>"
            + "<AgentID>1000002</AgentID></xml>";
    }
}
