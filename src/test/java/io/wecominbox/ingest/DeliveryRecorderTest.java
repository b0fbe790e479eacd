package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.event.SampleEvents;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryRecorderTest {

    private static final WeComApp APP = new WeComApp("customer", SampleEvents.CORP_ID, SampleEvents.AGENT_ID,
            new WeComCrypto("t", EncodingAesKeys.generate(), SampleEvents.CORP_ID));

    @Test
    void messageCarriesTheRoutingPropertiesTheConsumersFilterOn() throws Exception {
        OpenedCallback callback = opened(SampleEvents.textMessage("123", "hi"));
        Map<String, Object> p = DeliveryRecorder.messageProperties(callback, new RecordedDelivery(42, 3, null));
        assertEquals("customer", p.get("app"));
        assertEquals("text", p.get("eventType"));
        assertEquals("customer:msg:123", p.get("eventKey"));
        assertEquals(42L, p.get("callbackLogId"));
        assertEquals(3, p.get("attempt"));
        assertEquals(SampleEvents.CREATE_TIME, p.get("createTime"));
        assertFalse(p.containsKey("changeType"), "JMS properties cannot be null: absent instead");
    }

    @Test
    void changeTypeIsPassedWhenTheEventHasOne() throws Exception {
        String xml = SampleEvents.xml("ToUserName", SampleEvents.CORP_ID, "FromUserName", "sys", "CreateTime", "1718000000",
                "MsgType", "event", "Event", "change_contact", "ChangeType", "create_user", "UserID", "zhangsan");
        Map<String, Object> p = DeliveryRecorder.messageProperties(opened(xml), new RecordedDelivery(1, 1, null));
        assertEquals("change_contact", p.get("eventType"));
        assertEquals("create_user", p.get("changeType"));
    }

    private static OpenedCallback opened(String plaintext) throws Exception {
        return new OpenedCallback(APP, CallbackQuery.parse(""), "<xml/>", new CallbackEnvelope(null, null, "x"),
                plaintext, io.wecominbox.event.WeComEvent.parse(plaintext));
    }
}
