package io.wecominbox.event;

import static io.wecominbox.event.SampleEvents.CHAT_ID;
import static io.wecominbox.event.SampleEvents.CREATE_TIME;
import static io.wecominbox.event.SampleEvents.CUSTOMER_A;
import static io.wecominbox.event.SampleEvents.CUSTOMER_B;
import static io.wecominbox.event.SampleEvents.MEMBER;
import static io.wecominbox.event.SampleEvents.WELCOME_CODE_A;
import static io.wecominbox.event.SampleEvents.WELCOME_CODE_B;
import static io.wecominbox.event.SampleEvents.parsed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventKeysTest {

    private static final String T = Long.toString(CREATE_TIME);

    private static String keyOf(String xml) {
        return EventKeys.keyOf(parsed(xml));
    }

    @Nested
    class ForEveryKind {

        @ParameterizedTest
        @EnumSource(EventKind.class)
        void eachKindHasASampleAndANonEmptyKey(EventKind kind) {
            String xml = SampleEvents.onePerKind().get(kind);
            assertNotNull(xml, "no sample for " + kind);
            assertEquals(kind, parsed(xml).kind());
            assertFalse(keyOf(xml).isBlank());
        }

        @ParameterizedTest
        @EnumSource(EventKind.class)
        void byteIdenticalResendGetsTheSameKey(EventKind kind) {
            String xml = SampleEvents.onePerKind().get(kind);
            assertEquals(keyOf(xml), keyOf(new String(xml.toCharArray())));
        }

        @ParameterizedTest
        @EnumSource(EventKind.class)
        void keyNeverContainsTheRawXml(EventKind kind) {
            String xml = SampleEvents.onePerKind().get(kind);
            String key = keyOf(xml);
            assertFalse(key.contains("<") || key.contains(">") || key.contains("CDATA"), key);
            assertFalse(key.contains(xml));
        }

        @Test
        void samplesOfDifferentKindsGetDifferentKeys() {
            Map<EventKind, String> samples = SampleEvents.onePerKind();
            assertEquals(samples.size(),
                samples.values().stream().map(EventKeysTest::keyOf).distinct().count());
        }
    }

    @Nested
    class Messages {

        @Test
        void messageIsKeyedByItsMsgId() {
            assertEquals("msg:7363840128637150219", keyOf(SampleEvents.textMessage("7363840128637150219", "hi")));
        }

        @Test
        void messageOfUnfamiliarTypeIsStillKeyedByMsgId() {
            assertEquals("msg:7363840128637150220", keyOf(SampleEvents.message("markdown_v3", "7363840128637150220")));
        }

        @Test
        void sameTextInTwoMessagesStillGivesTwoKeys() {
            assertNotEquals(keyOf(SampleEvents.textMessage("1", "hi")), keyOf(SampleEvents.textMessage("2", "hi")));
        }
    }

    @Nested
    class ExternalContact {

        @Test
        void addWithWelcomeCodeIsKeyedByTheCode() {
            assertEquals("external_contact:add_external_contact:welcome:" + WELCOME_CODE_A,
                keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A)));
        }

        @Test
        void addWithoutWelcomeCodeIsKeyedByMemberCustomerAndSecond() {
            assertEquals("external_contact:add_external_contact:" + MEMBER + ":" + CUSTOMER_A + ":" + T,
                keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, null)));
        }

        @Test
        void emptyWelcomeCodeCountsAsAbsent() {
            assertEquals(keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, null)),
                keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, "")));
        }

        @Test
        void halfAddWithWelcomeCodeIsKeyedByTheCode() {
            assertEquals("external_contact:add_half_external_contact:welcome:" + WELCOME_CODE_B,
                keyOf(SampleEvents.externalContact("add_half_external_contact", MEMBER, CUSTOMER_B, CREATE_TIME,
                    "WelcomeCode", WELCOME_CODE_B)));
        }

        @Test
        void twoCustomersAddingTheSameMemberInTheSameSecondDifferWithWelcomeCode() {
            assertNotEquals(keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A)),
                keyOf(SampleEvents.addExternalContact(CUSTOMER_B, CREATE_TIME, WELCOME_CODE_B)));
        }

        @Test
        void twoCustomersAddingTheSameMemberInTheSameSecondDifferWithoutWelcomeCode() {
            assertNotEquals(keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, null)),
                keyOf(SampleEvents.addExternalContact(CUSTOMER_B, CREATE_TIME, null)));
        }

        @Test
        void prettyPrintedReorderedXmlGetsTheSameKey() {
            assertEquals(keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A)),
                keyOf(SampleEvents.addExternalContactPrettyReordered(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A)));
        }

        @Test
        void prettyPrintedReorderedXmlWithoutWelcomeCodeGetsTheSameKey() {
            assertEquals(keyOf(SampleEvents.addExternalContact(CUSTOMER_A, CREATE_TIME, null)),
                keyOf(SampleEvents.addExternalContactPrettyReordered(CUSTOMER_A, CREATE_TIME, null)));
        }

        @Test
        void deletionAddsSource() {
            assertEquals("external_contact:del_external_contact:" + MEMBER + ":" + CUSTOMER_A + ":" + T
                + ":DELETE_BY_TRANSFER", keyOf(SampleEvents.externalContact("del_external_contact", MEMBER,
                    CUSTOMER_A, CREATE_TIME, "Source", "DELETE_BY_TRANSFER")));
        }

        @Test
        void deletionWithoutSourceEndsInAnEmptyComponent() {
            assertEquals("external_contact:del_external_contact:" + MEMBER + ":" + CUSTOMER_A + ":" + T + ":",
                keyOf(SampleEvents.externalContact("del_external_contact", MEMBER, CUSTOMER_A, CREATE_TIME)));
        }

        @Test
        void transferFailureAddsFailReason() {
            assertEquals("external_contact:transfer_fail:" + MEMBER + ":" + CUSTOMER_A + ":" + T
                + ":customer_refused", keyOf(SampleEvents.externalContact("transfer_fail", MEMBER, CUSTOMER_A,
                    CREATE_TIME, "FailReason", "customer_refused")));
        }

        @Test
        void editAndDelFollowUserAreKeyedByMemberCustomerAndSecond() {
            assertEquals("external_contact:edit_external_contact:" + MEMBER + ":" + CUSTOMER_A + ":" + T,
                keyOf(SampleEvents.externalContact("edit_external_contact", MEMBER, CUSTOMER_A, CREATE_TIME)));
            assertEquals("external_contact:del_follow_user:" + MEMBER + ":" + CUSTOMER_A + ":" + T,
                keyOf(SampleEvents.externalContact("del_follow_user", MEMBER, CUSTOMER_A, CREATE_TIME)));
        }

        @Test
        void absentUserIdIsAnEmptyComponent() {
            assertEquals("external_contact:edit_external_contact::" + CUSTOMER_A + ":" + T,
                keyOf(SampleEvents.externalContact("edit_external_contact", null, CUSTOMER_A, CREATE_TIME)));
        }

        @Test
        void colonInsideUserIdCannotMakeTwoEventsCollide() {
            String a = keyOf(SampleEvents.externalContact("edit_external_contact", "a:b", "c", CREATE_TIME));
            String b = keyOf(SampleEvents.externalContact("edit_external_contact", "a", "b:c", CREATE_TIME));
            assertNotEquals(a, b);
            assertEquals("external_contact:edit_external_contact:a%3Ab:c:" + T, a);
        }

        @Test
        void escapedLookingUserIdCannotCollideWithAColon() {
            assertNotEquals(
                keyOf(SampleEvents.externalContact("edit_external_contact", "a:b", "c", CREATE_TIME)),
                keyOf(SampleEvents.externalContact("edit_external_contact", "a%3Ab", "c", CREATE_TIME)));
        }

        @Test
        void userIdSpellingWelcomeCannotPassForAWelcomeCodeKey() {
            String withCode = keyOf(SampleEvents.externalContact("add_external_contact", MEMBER, CUSTOMER_A,
                CREATE_TIME, "WelcomeCode", "X"));
            String crafted = keyOf(SampleEvents.externalContact("add_external_contact", "welcome", "X", 0));
            assertNotEquals(withCode, crafted);
        }

        @Test
        void unfamiliarChangeTypeFallsBackToTheCatchAllRecipe() {
            String key = keyOf(SampleEvents.externalContact("merge_external_contact", MEMBER, CUSTOMER_A,
                CREATE_TIME));
            assertTrue(key.startsWith("unknown:event:change_external_contact:merge_external_contact:sys:" + T),
                key);
        }
    }

    @Nested
    class ExternalChat {

        @Test
        void chatUpdateIsKeyedByChatDetailMemberVersionAndSecond() {
            assertEquals("external_chat:" + CHAT_ID + ":update:add_member:71217227bbd112ecfe3a49c482195cb4:" + T,
                keyOf(SampleEvents.chatAddMember("71217227bbd112ecfe3a49c482195cb4", CREATE_TIME, "wmA")));
        }

        @Test
        void twoJoinsInTheSameSecondDifferByMemberVersion() {
            assertNotEquals(keyOf(SampleEvents.chatAddMember("ver1", CREATE_TIME, "wmA")),
                keyOf(SampleEvents.chatAddMember("ver2", CREATE_TIME, "wmB")));
        }

        @Test
        void renamesWithoutMemberVersionDifferBySecond() {
            String first = keyOf(SampleEvents.externalChat("update", "change_name", null, CREATE_TIME));
            String second = keyOf(SampleEvents.externalChat("update", "change_name", null, CREATE_TIME + 1));
            assertNotEquals(first, second);
            assertEquals("external_chat:" + CHAT_ID + ":update:change_name::" + T, first);
        }

        @Test
        void createAndDismissAreKeyedToo() {
            assertEquals("external_chat:" + CHAT_ID + ":dismiss:::" + T,
                keyOf(SampleEvents.externalChat("dismiss", null, null, CREATE_TIME)));
        }
    }

    @Nested
    class ExternalTag {

        @Test
        void tagChangeIsKeyedByTypeIdStrategyAndSecond() {
            assertEquals("external_tag:create:tag:etm7wjCgAAd7yUxd5Kyi3cbu6vDYAAAA:1:" + T,
                keyOf(SampleEvents.externalTag("create", "tag", "etm7wjCgAAd7yUxd5Kyi3cbu6vDYAAAA", "1",
                    CREATE_TIME)));
        }

        @Test
        void tagAndTagGroupWithTheSameIdDiffer() {
            assertNotEquals(keyOf(SampleEvents.externalTag("delete", "tag", "et1", null, CREATE_TIME)),
                keyOf(SampleEvents.externalTag("delete", "tag_group", "et1", null, CREATE_TIME)));
        }
    }

    @Nested
    class Contact {

        @Test
        void userChangeIsKeyedByChangeTypeUserAndSecond() {
            assertEquals("contact:delete_user:lisi:" + T,
                keyOf(SampleEvents.contactUser("delete_user", "lisi", CREATE_TIME)));
        }

        @Test
        void createUserAndUpdateUserInTheSameSecondDiffer() {
            assertNotEquals(keyOf(SampleEvents.contactUser("create_user", "lisi", CREATE_TIME, "Name", "李四")),
                keyOf(SampleEvents.contactUser("update_user", "lisi", CREATE_TIME, "Name", "李四")));
        }

        @Test
        void partyChangeIsKeyedByChangeTypeIdAndSecond() {
            assertEquals("contact:update_party:42:" + T,
                keyOf(SampleEvents.contactParty("update_party", "42", CREATE_TIME)));
        }

        @Test
        void tagUpdateIsKeyedByTagAndWhatItAddedAndRemoved() {
            String key = keyOf(SampleEvents.updateTag("7", "zhangsan,lisi", null, "2", null, CREATE_TIME));
            assertEquals("contact:update_tag:7:zhangsan,lisi::2::" + T, key);
            assertNotEquals(key, keyOf(SampleEvents.updateTag("7", null, "zhangsan,lisi", "2", null, CREATE_TIME)));
        }
    }

    @Nested
    class MsgauditNotify {

        @Test
        void msgauditNotifyIsKeyedBySecondOnly() {
            assertEquals("msgaudit_notify:" + T, keyOf(SampleEvents.msgauditNotify(CREATE_TIME)));
            assertNotEquals(keyOf(SampleEvents.msgauditNotify(CREATE_TIME)),
                keyOf(SampleEvents.msgauditNotify(CREATE_TIME + 15)));
        }
    }

    @Nested
    class Unknown {

        @Test
        void unknownEventGetsAKeyOfAllItsFieldsInNameOrder() {
            WeComEvent e = parsed(SampleEvents.unknownEvent("living_status_change", CREATE_TIME,
                "Status", "1", "LivingId", "lvOQpTDwAAh8"));
            assertEquals(EventKind.UNKNOWN, e.kind());
            assertEquals("unknown:event:living_status_change::sys:" + T + ":LivingId=lvOQpTDwAAh8:Status=1",
                EventKeys.keyOf(e));
        }

        @Test
        void unknownEventKeyIgnoresFieldOrderAndLayout() {
            String compact = SampleEvents.unknownEvent("living_status_change", CREATE_TIME,
                "LivingId", "lv1", "Status", "1");
            String reordered = "<xml>\n <Status>1</Status>\n <LivingId><![CDATA[lv1]]></LivingId>\n"
                + " <Event><![CDATA[living_status_change]]></Event>\n <CreateTime>" + T + "</CreateTime>\n"
                + " <MsgType><![CDATA[event]]></MsgType>\n <FromUserName><![CDATA[sys]]></FromUserName>\n"
                + " <ToUserName><![CDATA[" + SampleEvents.CORP_ID + "]]></ToUserName>\n</xml>";
            assertEquals(keyOf(compact), keyOf(reordered));
        }

        @Test
        void unknownEventsDifferingInAnyFieldDiffer() {
            assertNotEquals(
                keyOf(SampleEvents.unknownEvent("living_status_change", CREATE_TIME, "LivingId", "lv1")),
                keyOf(SampleEvents.unknownEvent("living_status_change", CREATE_TIME, "LivingId", "lv2")));
        }

        @Test
        void messageWithoutMsgIdGetsTheCatchAllKey() {
            String xml = SampleEvents.xml("ToUserName", SampleEvents.CORP_ID, "FromUserName", MEMBER,
                "CreateTime", T, "MsgType", "text", "Content", "hi there");
            assertEquals("unknown:text:::" + MEMBER + ":" + T + ":Content=hi%20there", keyOf(xml));
        }

        @Test
        void emptyDocumentStillGetsANonEmptyKey() {
            WeComEvent e = parsed("<xml/>");
            assertEquals(EventKind.UNKNOWN, e.kind());
            assertEquals("unknown:::::", EventKeys.keyOf(e));
        }

        @Test
        void longUnknownEventKeyIsBoundedReadableAndStillDistinct() {
            String body = "x".repeat(2000);
            String a = keyOf(SampleEvents.unknownEvent("future_event", CREATE_TIME, "Payload", body + "a"));
            String b = keyOf(SampleEvents.unknownEvent("future_event", CREATE_TIME, "Payload", body + "b"));
            assertTrue(a.length() <= EventKeyBuilder.MAX_CHARS, "length " + a.length());
            assertTrue(a.startsWith("unknown:event:future_event::sys:" + T + ":Payload=xxx"), a);
            assertTrue(a.contains(EventKeyBuilder.DIGEST_MARKER));
            assertNotEquals(a, b);
            assertEquals(a, keyOf(SampleEvents.unknownEvent("future_event", CREATE_TIME, "Payload", body + "a")));
        }
    }
}
