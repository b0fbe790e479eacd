package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class JolokiaQueueReaderTest {

    private static String mbean(String address, String routing, String queue) {
        return "org.apache.activemq.artemis:address=\\\"" + address + "\\\",broker=\\\"wecom-inbox\\\",component=addresses,"
                + "queue=\\\"" + queue + "\\\",routing-type=\\\"" + routing + "\\\",subcomponent=queues";
    }

    private static String attrs(long messages, long consumers, boolean durable, boolean temporary) {
        return "{\"MessageCount\":" + messages + ",\"ConsumerCount\":" + consumers + ",\"DeliveringCount\":0,"
                + "\"Durable\":" + durable + ",\"Temporary\":" + temporary + "}";
    }

    @Test
    void readsOurQueuesAndDeadLettersButNotSubscriptionQueuesOrOthers() throws IOException {
        String json = "{\"request\":{},\"status\":200,\"timestamp\":1,\"value\":{"
                + "\"" + mbean("wecom.probe", "anycast", "wecom.probe") + "\":" + attrs(3, 2, true, false) + ","
                + "\"" + mbean("DLQ.wecom.events", "anycast", "DLQ.wecom.events") + "\":" + attrs(7, 0, true, false) + ","
                + "\"" + mbean("wecom.events", "multicast", "1f0c9a4e-0d2b-11f1-9a7b-0242ac120002") + "\":" + attrs(1, 1, false, false) + ","
                + "\"" + mbean("activemq.notifications", "multicast", "notif.x") + "\":" + attrs(0, 1, true, false) + ","
                + "\"" + mbean("ExpiryQueue", "anycast", "ExpiryQueue") + "\":" + attrs(0, 0, true, false)
                + "}}";

        List<QueueDepth> queues = JolokiaQueueReader.parse(json);

        assertEquals(List.of("DLQ.wecom.events", "ExpiryQueue", "wecom.probe"), queues.stream().map(QueueDepth::queue).toList());
        QueueDepth probe = queues.get(2);
        assertEquals(3, probe.messages());
        assertEquals(2, probe.consumers());
        assertEquals("wecom.probe", probe.address());
        assertTrue(queues.get(0).deadLetter());
        assertTrue(queues.get(1).expiry());
    }

    @Test
    void aRefusedReadIsAnErrorWithoutTheAnswerText() {
        IOException e = assertThrows(IOException.class, () -> JolokiaQueueReader.parse(
                "{\"status\":403,\"error_type\":\"java.lang.Exception\",\"error\":\"secret stuff\"}"));
        assertTrue(e.getMessage().contains("403"));
        assertTrue(!e.getMessage().contains("secret"));
    }

    @Test
    void noMatchingQueueIsAnEmptyList() throws IOException {
        assertEquals(List.of(), JolokiaQueueReader.parse("{\"status\":200,\"value\":{}}"));
    }
}
