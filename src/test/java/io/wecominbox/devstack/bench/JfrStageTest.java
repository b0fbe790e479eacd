package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JfrStageTest {

    @Test
    void aSampleIsChargedToThePipelineStageWhoseCodeIsOutermost() {
        assertEquals("group commit", JfrHotMethods.stageOf("io.wecominbox.ingest.GroupCommitWriter"));
        assertEquals("group commit", JfrHotMethods.stageOf("io.wecominbox.ingest.GroupCommitWriter$Waiting"));
        assertEquals("callback request (verify, decrypt, parse, hand over)",
                JfrHotMethods.stageOf("io.wecominbox.ingest.CallbackResource"));
        assertEquals("parking and draining", JfrHotMethods.stageOf("io.wecominbox.ingest.ParkedDeliveries"));
        assertEquals("relay", JfrHotMethods.stageOf("io.wecominbox.relay.PublicationRelay"));
        assertEquals("handler crm", JfrHotMethods.stageOf("io.wecominbox.handler.crm.CrmEventConsumer"));
        assertEquals("handler welcome", JfrHotMethods.stageOf("io.wecominbox.handler.welcome.WelcomeHandler$1"));
        assertEquals("handlers (shared runner)", JfrHotMethods.stageOf("io.wecominbox.handler.HandlerRunner"));
        assertEquals("ops", JfrHotMethods.stageOf("io.wecominbox.ops.metrics.QueueDepth"));
    }
}
