package io.wecominbox.simulator.platform;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventFactoryTest {

    private static final WeComApp APP = new WeComApp("customer", "wwcorp123", "tok", "k".repeat(43), "1000002", "s");
    private static final Instant NOW = Instant.parse("2024-05-01T08:00:00.750Z");

    private final List<String> issuedCodes = new ArrayList<>();
    private final EventFactory factory = new EventFactory(new MutableClock(NOW), new Random(42),
            (app, code, createTime) -> issuedCodes.add(app + ":" + code + ":" + createTime.getEpochSecond()));

    private Element xml(EventType type) throws Exception {
        return parse(factory.create(APP, type).xml());
    }

    @Test
    void everyEventCarriesTheCommonFieldsWithWholeSecondCreateTime() throws Exception {
        for (EventType type : EventType.values()) {
            Element root = xml(type);
            assertEquals("wwcorp123", text(root, "ToUserName"), type + " ToUserName");
            assertEquals(String.valueOf(NOW.getEpochSecond()), text(root, "CreateTime"), type + " CreateTime");
            assertNotNull(text(root, "MsgType"), type + " MsgType");
        }
    }

    @Test
    void textMessageHasMemberSenderContentAnd64BitMsgId() throws Exception {
        Element root = xml(EventType.TEXT_MESSAGE);

        assertEquals("text", text(root, "MsgType"));
        assertNotEquals("sys", text(root, "FromUserName"));
        assertNotNull(text(root, "Content"));
        assertEquals("1000002", text(root, "AgentID"));
        long msgId = Long.parseLong(text(root, "MsgId"));
        assertTrue(msgId > (1L << 53), "MsgId beyond double precision: " + msgId);
        assertNull(text(root, "Event"));
    }

    @Test
    void addExternalContactCarriesAFreshWelcomeCodeAndRegistersIt() throws Exception {
        SimEvent event = factory.create(APP, EventType.ADD_EXTERNAL_CONTACT);
        Element root = parse(event.xml());

        assertEquals("sys", text(root, "FromUserName"));
        assertEquals("event", text(root, "MsgType"));
        assertEquals("change_external_contact", text(root, "Event"));
        assertEquals("add_external_contact", text(root, "ChangeType"));
        assertNotNull(text(root, "UserID"));
        assertTrue(text(root, "ExternalUserID").startsWith("wm"));
        assertNotNull(text(root, "State"));
        assertEquals(event.welcomeCode(), text(root, "WelcomeCode"));
        assertEquals(List.of("customer:" + event.welcomeCode() + ":" + NOW.getEpochSecond()), issuedCodes);

        SimEvent another = factory.create(APP, EventType.ADD_EXTERNAL_CONTACT);
        assertNotEquals(event.welcomeCode(), another.welcomeCode());
    }

    @Test
    void addExternalContactWithoutWelcomeCodeHasNoCodeAndRegistersNothing() throws Exception {
        Element root = xml(EventType.ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE);

        assertEquals("add_external_contact", text(root, "ChangeType"));
        assertNull(text(root, "WelcomeCode"));
        assertTrue(issuedCodes.isEmpty());
    }

    @Test
    void externalContactChangesCarryTheirSpecificFields() throws Exception {
        assertEquals("add_half_external_contact", text(xml(EventType.ADD_HALF_EXTERNAL_CONTACT), "ChangeType"));
        assertEquals("edit_external_contact", text(xml(EventType.EDIT_EXTERNAL_CONTACT), "ChangeType"));
        Element del = xml(EventType.DEL_EXTERNAL_CONTACT);
        assertEquals("del_external_contact", text(del, "ChangeType"));
        assertNotNull(text(del, "Source"), "del_external_contact has Source");
        Element delFollow = xml(EventType.DEL_FOLLOW_USER);
        assertEquals("del_follow_user", text(delFollow, "ChangeType"));
        assertNotNull(text(delFollow, "ExternalUserID"));
        Element transfer = xml(EventType.TRANSFER_FAIL);
        assertEquals("transfer_fail", text(transfer, "ChangeType"));
        assertNotNull(text(transfer, "FailReason"));
    }

    @Test
    void editAndDeleteReferToACustomerWhoWasAdded() throws Exception {
        Element added = xml(EventType.ADD_EXTERNAL_CONTACT);
        Element deleted = xml(EventType.DEL_EXTERNAL_CONTACT);

        assertEquals(text(added, "ExternalUserID"), text(deleted, "ExternalUserID"));
        assertEquals(text(added, "UserID"), text(deleted, "UserID"));
    }

    @Test
    void externalChatEventsCarryChatIdAndUpdateCarriesMemberVersions() throws Exception {
        Element create = xml(EventType.EXTERNAL_CHAT_CREATE);
        assertEquals("change_external_chat", text(create, "Event"));
        assertEquals("create", text(create, "ChangeType"));
        assertNotNull(text(create, "ChatId"));
        assertEquals("dismiss", text(xml(EventType.EXTERNAL_CHAT_DISMISS), "ChangeType"));

        boolean sawMemberList = false;
        for (int i = 0; i < 30; i++) {
            Element update = xml(EventType.EXTERNAL_CHAT_UPDATE);
            assertEquals("update", text(update, "ChangeType"));
            assertNotNull(text(update, "UpdateDetail"));
            assertEquals(32, text(update, "LastMemVer").length());
            assertEquals(32, text(update, "CurMemVer").length());
            if (text(update, "UpdateDetail").endsWith("_member")) {
                sawMemberList = true;
                NodeList items = ((Element) update.getElementsByTagName("MemChangeList").item(0))
                        .getElementsByTagName("Item");
                assertEquals(Integer.parseInt(text(update, "MemChangeCnt")), items.getLength());
            }
        }
        assertTrue(sawMemberList);
    }

    @Test
    void externalTagEventCarriesIdTagTypeChangeTypeAndStrategy() throws Exception {
        Element root = xml(EventType.EXTERNAL_TAG_CHANGE);

        assertEquals("change_external_tag", text(root, "Event"));
        assertNotNull(text(root, "Id"));
        assertTrue(Set.of("tag", "tag_group").contains(text(root, "TagType")));
        assertTrue(Set.of("create", "update", "delete", "shuffle").contains(text(root, "ChangeType")));
        assertNotNull(text(root, "StrategyId"));
    }

    @Test
    void memberCreationFiresCreateUserAndUpdateUserInTheSameSecond() throws Exception {
        List<SimEvent> pair = factory.memberCreated(APP);

        assertEquals(2, pair.size());
        Element create = parse(pair.get(0).xml());
        Element update = parse(pair.get(1).xml());
        assertEquals("change_contact", text(create, "Event"));
        assertEquals("create_user", text(create, "ChangeType"));
        assertEquals("update_user", text(update, "ChangeType"));
        assertEquals(text(create, "CreateTime"), text(update, "CreateTime"));
        assertEquals(text(create, "UserID"), text(update, "UserID"));
        assertNotEquals(pair.get(0).id(), pair.get(1).id());
    }

    @Test
    void partyAndTagContactChangesCarryTheirIds() throws Exception {
        Element party = xml(EventType.CREATE_PARTY);
        assertEquals("create_party", text(party, "ChangeType"));
        assertNotNull(text(party, "Id"));
        Element tag = xml(EventType.UPDATE_TAG);
        assertEquals("update_tag", text(tag, "ChangeType"));
        assertNotNull(text(tag, "TagId"));
    }

    @Test
    void msgauditNotifyCarriesNoIdentityAtAll() throws Exception {
        Element root = xml(EventType.MSGAUDIT_NOTIFY);

        assertEquals("msgaudit_notify", text(root, "Event"));
        Set<String> fields = new HashSet<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) fields.add(n.getNodeName());
        assertEquals(Set.of("ToUserName", "FromUserName", "CreateTime", "MsgType", "AgentID", "Event"), fields);
    }

    @Test
    void unknownEventHasAnEventNameNoAppKnows() throws Exception {
        Element root = xml(EventType.UNKNOWN_EVENT);
        assertEquals("event", text(root, "MsgType"));
        assertFalse(Set.of("change_external_contact", "change_external_chat", "change_external_tag",
                "change_contact", "msgaudit_notify").contains(text(root, "Event")));
    }

    @Test
    void stringsAreWrappedInCdataLikeWeComDoes() {
        String xml = factory.create(APP, EventType.ADD_EXTERNAL_CONTACT).xml();

        assertTrue(xml.startsWith("<xml><ToUserName><![CDATA[wwcorp123]]></ToUserName>"), xml);
        assertTrue(xml.contains("<CreateTime>" + NOW.getEpochSecond() + "</CreateTime>"), xml);
        assertTrue(xml.contains("<ChangeType><![CDATA[add_external_contact]]></ChangeType>"), xml);
    }

    @Test
    void cdataSplitsAnEmbeddedTerminator() throws Exception {
        String xml = "<xml>" + "<A>" + PlaintextXml.cdata("x]]>y") + "</A></xml>";
        assertEquals("x]]>y", text(parse(xml), "A"));
    }

    private static Element parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return doc.getDocumentElement();
    }

    private static String text(Element root, String name) {
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeName().equals(name)) {
                return n.getTextContent();
            }
        }
        return null;
    }
}
