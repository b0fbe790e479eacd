package io.wecominbox.event;

import static io.wecominbox.event.SampleEvents.CORP_ID;
import static io.wecominbox.event.SampleEvents.CREATE_TIME;
import static io.wecominbox.event.SampleEvents.CUSTOMER_A;
import static io.wecominbox.event.SampleEvents.MEMBER;
import static io.wecominbox.event.SampleEvents.WELCOME_CODE_A;
import static io.wecominbox.event.SampleEvents.parsed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WeComEventTest {

    @Test
    void textMessageExposesItsFields() {
        WeComEvent e = parsed(SampleEvents.textMessage("7363840128637150219", "你好，请问门店几点营业？"));
        assertEquals(EventKind.MESSAGE, e.kind());
        assertEquals("text", e.typeName());
        assertEquals(CORP_ID, e.toUserName());
        assertEquals(MEMBER, e.fromUserName());
        assertEquals(CREATE_TIME, e.createTime());
        assertEquals("text", e.msgType());
        assertNull(e.event());
        assertNull(e.changeType());
        assertEquals("1000002", e.agentId());
        assertEquals("7363840128637150219", e.msgId());
        assertEquals("你好，请问门店几点营业？", e.field("Content"));
    }

    @Test
    void addExternalContactExposesWhatTheWelcomeHandlerNeeds() {
        WeComEvent e = parsed(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A));
        assertEquals(EventKind.EXTERNAL_CONTACT, e.kind());
        assertEquals("change_external_contact", e.typeName());
        assertEquals("event", e.msgType());
        assertEquals("change_external_contact", e.event());
        assertEquals("add_external_contact", e.changeType());
        assertEquals("sys", e.fromUserName());
        assertEquals(MEMBER, e.userId());
        assertEquals(CUSTOMER_A, e.externalUserId());
        assertEquals("qr_store_0571", e.state());
        assertEquals(WELCOME_CODE_A, e.welcomeCode());
        assertNull(e.msgId());
        assertNull(e.agentId());
    }

    @Test
    void missingWelcomeCodeIsNull() {
        assertNull(parsed(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, null)).welcomeCode());
    }

    @Test
    void emptyWelcomeCodeIsNullForTypedAccessorButKeptInFields() {
        WeComEvent e = parsed(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, ""));
        assertNull(e.welcomeCode());
        assertEquals("", e.field("WelcomeCode"));
    }

    @Test
    void fieldsAreInDocumentOrderAndListsAreJoined() {
        WeComEvent e = parsed(SampleEvents.chatAddMember("71217227bbd112ecfe3a49c482195cb4", CREATE_TIME,
            "wmB", "wmA", "wmC"));
        assertEquals(List.of("ToUserName", "FromUserName", "CreateTime", "MsgType", "Event", "ChatId",
            "ChangeType", "UpdateDetail", "JoinScene", "MemChangeCnt", "MemChangeList", "LastMemVer", "CurMemVer"),
            List.copyOf(e.fields().keySet()));
        assertEquals("wmB,wmA,wmC", e.field("MemChangeList"));
        assertEquals("wmB,wmA,wmC", e.fields().get("MemChangeList"));
        assertEquals(EventKind.EXTERNAL_CHAT, e.kind());
    }

    @Test
    void fieldsCannotBeModified() {
        Map<String, String> fields = parsed(SampleEvents.msgauditNotify(CREATE_TIME)).fields();
        assertThrows(UnsupportedOperationException.class, () -> fields.put("CreateTime", "0"));
        assertThrows(UnsupportedOperationException.class, () -> fields.remove("Event"));
    }

    @Test
    void absentFieldIsNull() {
        assertNull(parsed(SampleEvents.msgauditNotify(CREATE_TIME)).field("UserID"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", "-5", "1.5", "99999999999999999999"})
    void invalidCreateTimeReadsAsZero(String createTime) {
        WeComEvent e = parsed(SampleEvents.xml("MsgType", "event", "Event", "msgaudit_notify",
            "CreateTime", createTime));
        assertEquals(0, e.createTime());
    }

    @Test
    void absentCreateTimeReadsAsZero() {
        assertEquals(0, parsed(SampleEvents.xml("MsgType", "event", "Event", "msgaudit_notify")).createTime());
    }

    @Test
    void messageOfUnfamiliarTypeWithMsgIdIsStillAMessage() {
        WeComEvent e = parsed(SampleEvents.message("markdown_v3", "7363840128637150220"));
        assertEquals(EventKind.MESSAGE, e.kind());
        assertEquals("markdown_v3", e.typeName());
    }

    @Test
    void messageWithoutMsgIdIsUnknownButKept() {
        WeComEvent e = parsed(SampleEvents.xml("ToUserName", CORP_ID, "FromUserName", MEMBER,
            "CreateTime", "1718000000", "MsgType", "text", "Content", "hi"));
        assertEquals(EventKind.UNKNOWN, e.kind());
        assertEquals("text", e.typeName());
    }

    @Test
    void unfamiliarEventIsUnknownAndRoutedByItsEventName() {
        WeComEvent e = parsed(SampleEvents.unknownEvent("living_status_change", CREATE_TIME, "Status", "1"));
        assertEquals(EventKind.UNKNOWN, e.kind());
        assertEquals("living_status_change", e.typeName());
        assertEquals("1", e.field("Status"));
    }

    @Test
    void typeNameFallsBackToUnknownWhenNothingSaysWhatItIs() {
        assertEquals("unknown", parsed("<xml><CreateTime>1</CreateTime></xml>").typeName());
        assertEquals("unknown", parsed("<xml><MsgType>event</MsgType></xml>").typeName());
        assertEquals(EventKind.UNKNOWN, parsed("<xml/>").kind());
    }

    @Test
    void eachContactFamilyIsClassified() {
        assertEquals(EventKind.EXTERNAL_TAG,
            parsed(SampleEvents.externalTag("shuffle", "tag_group", "et1", "", CREATE_TIME)).kind());
        assertEquals(EventKind.CONTACT, parsed(SampleEvents.contactParty("create_party", "42", CREATE_TIME)).kind());
        assertEquals(EventKind.MSGAUDIT_NOTIFY, parsed(SampleEvents.msgauditNotify(CREATE_TIME)).kind());
    }

    @Test
    void prettyPrintedReorderedXmlGivesTheSameFieldValues() {
        WeComEvent compact = parsed(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A));
        WeComEvent pretty = parsed(
            SampleEvents.addExternalContactPrettyReordered(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A));
        assertEquals(Map.copyOf(compact.fields()), Map.copyOf(pretty.fields()));
    }

    @Test
    void sameXmlParsesToEqualEvents() {
        String xml = SampleEvents.contactUser("update_user", "lisi", CREATE_TIME);
        assertEquals(parsed(xml), parsed(xml));
        assertEquals(parsed(xml).hashCode(), parsed(xml).hashCode());
    }

    @Test
    void toStringLeavesOutContentAndIds() {
        String text = parsed(SampleEvents.textMessage("7363840128637150219", "my phone is 13800138000")).toString();
        assertTrue(text.contains("text"));
        assertFalse(text.contains("13800138000"));
        assertFalse(text.contains(MEMBER));
    }

    @Test
    void malformedPlaintextIsRejected() {
        assertThrows(MalformedXmlException.class, () -> WeComEvent.parse("<xml><MsgType>text</xml>"));
    }
}
