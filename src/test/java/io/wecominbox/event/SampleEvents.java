package io.wecominbox.event;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decrypted callback plaintexts shaped like WeCom's (protocol notes, "Event fields"): string values in
 * CDATA, numbers bare, one line. Ids are made up but have the real shapes. Reuse them from any test.
 */
public final class SampleEvents {

    public static final String CORP_ID = "ww3f2a9c81d4e7b605";
    public static final String AGENT_ID = "1000002";
    public static final long CREATE_TIME = 1718000000L;
    public static final String MEMBER = "zhangsan";
    public static final String CUSTOMER_A = "wmAJ2GCAAAXtWyujaWJHDDGi0mACAAAA";
    public static final String CUSTOMER_B = "wmAJ2GCAAAq9Hl8pE3xYmZkR2vTBAAAA";
    public static final String WELCOME_CODE_A = "CALLBACK_CODE_9sK2mQ7xLp4RtV1w";
    public static final String WELCOME_CODE_B = "CALLBACK_CODE_3bN8cJ5yHd6FgZ0e";
    public static final String CHAT_ID = "wrOgQhDgAAMYQiS5ol9G7gK9JVAAAA";

    private SampleEvents() {
    }

    /**
     * Builds {@code <xml>} from name/value pairs. A null value leaves the field out; a value starting with
     * '<' is inserted as markup (for lists); digits are written bare; anything else goes in CDATA.
     */
    public static String xml(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must come in pairs");
        }
        StringBuilder sb = new StringBuilder("<xml>");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String name = namesAndValues[i];
            String value = namesAndValues[i + 1];
            if (value == null) {
                continue;
            }
            sb.append('<').append(name).append('>');
            if (value.startsWith("<") || value.matches("\\d+")) {
                sb.append(value);
            } else {
                sb.append("<![CDATA[").append(value).append("]]>");
            }
            sb.append("</").append(name).append('>');
        }
        return sb.append("</xml>").toString();
    }

    /** The list markup WeCom uses for MemChangeList. */
    public static String items(String... values) {
        StringBuilder sb = new StringBuilder();
        for (String v : values) {
            sb.append("<Item><![CDATA[").append(v).append("]]></Item>");
        }
        return sb.toString();
    }

    /** Parses a sample; a sample that does not parse is a bug in the test. */
    public static WeComEvent parsed(String xml) {
        try {
            return WeComEvent.parse(xml);
        } catch (MalformedXmlException e) {
            throw new AssertionError("sample does not parse: " + e.getMessage(), e);
        }
    }

    public static String message(String msgType, String msgId, String... extra) {
        return concat(new String[] {"ToUserName", CORP_ID, "FromUserName", MEMBER,
            "CreateTime", Long.toString(CREATE_TIME), "MsgType", msgType}, extra,
            new String[] {"MsgId", msgId, "AgentID", AGENT_ID});
    }

    public static String textMessage(String msgId, String content) {
        return message("text", msgId, "Content", content);
    }

    private static String[] eventHeader(String event, long createTime) {
        return new String[] {"ToUserName", CORP_ID, "FromUserName", "sys",
            "CreateTime", Long.toString(createTime), "MsgType", "event", "Event", event};
    }

    public static String externalContact(String changeType, String userId, String externalUserId,
            long createTime, String... extra) {
        return concat(eventHeader("change_external_contact", createTime),
            new String[] {"ChangeType", changeType, "UserID", userId, "ExternalUserID", externalUserId}, extra);
    }

    /** welcomeCode may be null: WeCom omits it in several cases (console welcome, already chatted, ...). */
    public static String addExternalContact(String externalUserId, long createTime, String welcomeCode) {
        return externalContact("add_external_contact", MEMBER, externalUserId, createTime,
            "State", "qr_store_0571", "WelcomeCode", welcomeCode);
    }

    public static String externalChat(String changeType, String updateDetail, String curMemVer,
            long createTime, String... extra) {
        return concat(eventHeader("change_external_chat", createTime),
            new String[] {"ChatId", CHAT_ID, "ChangeType", changeType, "UpdateDetail", updateDetail}, extra,
            new String[] {"CurMemVer", curMemVer});
    }

    public static String chatAddMember(String curMemVer, long createTime, String... members) {
        return externalChat("update", "add_member", curMemVer, createTime,
            "JoinScene", "1", "MemChangeCnt", Integer.toString(members.length),
            "MemChangeList", items(members), "LastMemVer", "9c3f595da8ab4b2b2a5b2c5b4f5d3e2a");
    }

    public static String externalTag(String changeType, String tagType, String id, String strategyId,
            long createTime) {
        return concat(eventHeader("change_external_tag", createTime), new String[] {
            "Id", id, "TagType", tagType, "ChangeType", changeType, "StrategyId", strategyId});
    }

    public static String contactUser(String changeType, String userId, long createTime, String... extra) {
        return concat(eventHeader("change_contact", createTime),
            new String[] {"ChangeType", changeType, "UserID", userId}, extra);
    }

    public static String contactParty(String changeType, String id, long createTime) {
        return concat(eventHeader("change_contact", createTime),
            new String[] {"ChangeType", changeType, "Id", id, "Name", "华东销售部", "ParentId", "1"});
    }

    public static String updateTag(String tagId, String addUsers, String delUsers, String addParties,
            String delParties, long createTime) {
        return concat(eventHeader("change_contact", createTime), new String[] {"ChangeType", "update_tag",
            "TagId", tagId, "AddUserItems", addUsers, "DelUserItems", delUsers,
            "AddPartyItems", addParties, "DelPartyItems", delParties});
    }

    public static String msgauditNotify(long createTime) {
        return concat(eventHeader("msgaudit_notify", createTime), new String[] {"AgentID", "2000004"});
    }

    public static String unknownEvent(String event, long createTime, String... extra) {
        return concat(eventHeader(event, createTime), extra);
    }

    /** The add_external_contact sample pretty-printed, reordered and with a padded CreateTime. */
    public static String addExternalContactPrettyReordered(String externalUserId, long createTime,
            String welcomeCode) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xml>\n"
            + "    <CreateTime>\n        " + createTime + "\n    </CreateTime>\n"
            + (welcomeCode == null ? "" : "    <WelcomeCode><![CDATA[" + welcomeCode + "]]></WelcomeCode>\n")
            + "    <ExternalUserID><![CDATA[" + externalUserId + "]]></ExternalUserID>\n"
            + "    <UserID><![CDATA[" + MEMBER + "]]></UserID>\n"
            + "    <ChangeType><![CDATA[add_external_contact]]></ChangeType>\n"
            + "    <State><![CDATA[qr_store_0571]]></State>\n"
            + "    <Event><![CDATA[change_external_contact]]></Event>\n"
            + "    <MsgType><![CDATA[event]]></MsgType>\n"
            + "    <FromUserName><![CDATA[sys]]></FromUserName>\n"
            + "    <ToUserName><![CDATA[" + CORP_ID + "]]></ToUserName>\n"
            + "</xml>\n";
    }

    /** One realistic sample per kind, so a test can cover every kind (and notice a new one). */
    public static Map<EventKind, String> onePerKind() {
        Map<EventKind, String> samples = new LinkedHashMap<>();
        samples.put(EventKind.MESSAGE, textMessage("7363840128637150219", "你好，请问门店几点营业？"));
        samples.put(EventKind.EXTERNAL_CONTACT, addExternalContact(CUSTOMER_A, CREATE_TIME, WELCOME_CODE_A));
        samples.put(EventKind.EXTERNAL_CHAT, chatAddMember("71217227bbd112ecfe3a49c482195cb4", CREATE_TIME,
            "wmEAlECwAAHrbWYDOK5u3Af13xlYDDNQ", "wmEAlECwAAHrbWYDOK5u3Af13xlYDAAA"));
        samples.put(EventKind.EXTERNAL_TAG, externalTag("create", "tag", "etm7wjCgAAd7yUxd5Kyi3cbu6vDYAAAA",
            "1", CREATE_TIME));
        samples.put(EventKind.CONTACT, contactUser("create_user", "lisi", CREATE_TIME, "Name", "李四",
            "Department", "1,2"));
        samples.put(EventKind.MSGAUDIT_NOTIFY, msgauditNotify(CREATE_TIME));
        samples.put(EventKind.UNKNOWN, unknownEvent("living_status_change", CREATE_TIME,
            "LivingId", "lvOQpTDwAAh8CsRbAbcQ6ZrRkU7gMBHQ", "Status", "1"));
        return samples;
    }

    private static String concat(String[]... parts) {
        int n = 0;
        for (String[] p : parts) {
            n += p.length;
        }
        String[] all = new String[n];
        int i = 0;
        for (String[] p : parts) {
            System.arraycopy(p, 0, all, i, p.length);
            i += p.length;
        }
        return xml(all);
    }
}
