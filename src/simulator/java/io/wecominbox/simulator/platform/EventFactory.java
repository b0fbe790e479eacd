package io.wecominbox.simulator.platform;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.directory.CustomerDirectory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates realistic plaintext callbacks, field for field as WeCom sends them. Remembers recently added
 * customers so that edits and deletes refer to someone who was actually added, and records every add and
 * delete in the {@link CustomerDirectory} the API side lists customers from. Thread-safe.
 */
public final class EventFactory {

    private static final String[] MEMBERS = {"zhangsan", "lisi", "wangwu", "zhaoliu", "sunqi", "zhouba"};
    private static final String[] TEXTS = {"你好", "请问发货了吗？", "price list please", "谢谢", "ok 👍",
            "a <b>tag</b> & an ampersand", "订单 12345 什么时候到？"};
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final int REMEMBERED_CONTACTS = 200;

    private final Clock clock;
    private final Random random;
    private final WelcomeCodeListener welcomeCodes;
    private final AtomicLong sequence = new AtomicLong();
    private final Deque<String[]> recentContacts = new ArrayDeque<>(); // {userId, externalUserId}

    private final CustomerDirectory directory;

    public EventFactory(Clock clock, Random random, WelcomeCodeListener welcomeCodes) {
        this(clock, random, welcomeCodes, new CustomerDirectory());
    }

    /** Every add and delete it generates is recorded in {@code directory} (what WeCom knows, delivered or not). */
    public EventFactory(Clock clock, Random random, WelcomeCodeListener welcomeCodes, CustomerDirectory directory) {
        this.clock = clock;
        this.random = random;
        this.welcomeCodes = welcomeCodes;
        this.directory = directory;
    }

    /** An add_external_contact by this member of a new customer (with a WelcomeCode when asked). */
    public SimEvent contactAddedBy(WeComApp app, String member, boolean withWelcomeCode) {
        return addContact(app, Instant.ofEpochSecond(clock.instant().getEpochSecond()), "add_external_contact",
                withWelcomeCode, member, "wm" + randomString(30));
    }

    /** The same customer added again by the same member (after a delete): a new fact with a new code. */
    public SimEvent contactReAdded(WeComApp app, String member, String externalUserId, boolean withWelcomeCode) {
        return addContact(app, Instant.ofEpochSecond(clock.instant().getEpochSecond()), "add_external_contact",
                withWelcomeCode, member, externalUserId);
    }

    /** del_follow_user (the customer deleted the member) or del_external_contact for one relationship. */
    public SimEvent contactDeleted(WeComApp app, String member, String externalUserId, boolean byCustomer) {
        Instant second = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        String changeType = byCustomer ? "del_follow_user" : "del_external_contact";
        PlaintextXml xml = externalContact(app, second, changeType).text("UserID", member)
                .text("ExternalUserID", externalUserId);
        if (!byCustomer) {
            xml.text("Source", "");
        }
        directory.removed(app.name(), member, externalUserId);
        return event(app, byCustomer ? EventType.DEL_FOLLOW_USER : EventType.DEL_EXTERNAL_CONTACT, second,
                xml.build(), null);
    }

    public SimEvent create(WeComApp app, EventType type) {
        return create(app, type, Instant.ofEpochSecond(clock.instant().getEpochSecond()));
    }

    /** A new member fires create_user AND update_user in the same second; the pair shares UserID. */
    public List<SimEvent> memberCreated(WeComApp app) {
        Instant second = Instant.ofEpochSecond(clock.instant().getEpochSecond());
        String userId = "new." + randomString(6).toLowerCase(java.util.Locale.ROOT);
        List<SimEvent> pair = new ArrayList<>(2);
        pair.add(event(app, EventType.CREATE_USER, second, contact(app, second, "create_user")
                .text("UserID", userId).text("Name", "新同事").text("Department", "1,2").text("MainDepartment", "1")
                .text("IsLeaderInDept", "0,0").text("Position", "销售").text("Mobile", "13800000000")
                .number("Gender", 1).text("Email", userId + "@example.com").number("Status", 4)
                .text("Alias", userId).build(), null));
        pair.add(event(app, EventType.UPDATE_USER, second, contact(app, second, "update_user")
                .text("UserID", userId).number("Status", 1).text("Avatar", "https://wework.qpic.cn/avatar/" + userId)
                .build(), null));
        return pair;
    }

    /**
     * A text message from the given member: a test that counts replies per message at the API gives each
     * message its own sender (message/send carries no message id, only the recipient).
     */
    public SimEvent textMessageFrom(WeComApp app, String member) {
        return textMessage(app, Instant.ofEpochSecond(clock.instant().getEpochSecond()), member);
    }

    SimEvent create(WeComApp app, EventType type, Instant second) {
        long t = second.getEpochSecond();
        return switch (type) {
            case TEXT_MESSAGE -> textMessage(app, second, member());
            case ADD_EXTERNAL_CONTACT -> addContact(app, second, "add_external_contact", true);
            case ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE -> addContact(app, second, "add_external_contact", false);
            case ADD_HALF_EXTERNAL_CONTACT -> addContact(app, second, "add_half_external_contact", random.nextBoolean());
            case EDIT_EXTERNAL_CONTACT -> {
                String[] c = knownContact();
                yield event(app, type, second, externalContact(app, second, "edit_external_contact")
                        .text("UserID", c[0]).text("ExternalUserID", c[1]).build(), null);
            }
            case DEL_EXTERNAL_CONTACT -> {
                String[] c = knownContact();
                directory.removed(app.name(), c[0], c[1]);
                yield event(app, type, second, externalContact(app, second, "del_external_contact")
                        .text("UserID", c[0]).text("ExternalUserID", c[1])
                        .text("Source", random.nextInt(4) == 0 ? "DELETE_BY_TRANSFER" : "").build(), null);
            }
            case DEL_FOLLOW_USER -> {
                String[] c = knownContact();
                directory.removed(app.name(), c[0], c[1]);
                yield event(app, type, second, externalContact(app, second, "del_follow_user")
                        .text("UserID", c[0]).text("ExternalUserID", c[1]).build(), null);
            }
            case TRANSFER_FAIL -> {
                String[] c = knownContact();
                yield event(app, type, second, externalContact(app, second, "transfer_fail")
                        .text("FailReason", random.nextBoolean() ? "customer_refused" : "customer_limit_exceed")
                        .text("UserID", c[0]).text("ExternalUserID", c[1]).build(), null);
            }
            case EXTERNAL_CHAT_CREATE -> event(app, type, second, externalChat(app, second, "create").build(), null);
            case EXTERNAL_CHAT_UPDATE -> event(app, type, second, chatUpdate(app, second), null);
            case EXTERNAL_CHAT_DISMISS -> event(app, type, second, externalChat(app, second, "dismiss").build(), null);
            case EXTERNAL_TAG_CHANGE -> event(app, type, second, header(app, second, "change_external_tag")
                    .text("Id", "et" + randomString(20)).text("TagType", random.nextBoolean() ? "tag" : "tag_group")
                    .text("ChangeType", pick(new String[] {"create", "update", "delete", "shuffle"}))
                    .number("StrategyId", 1 + random.nextInt(3)).build(), null);
            case CREATE_USER -> memberCreated(app).get(0);
            case UPDATE_USER -> event(app, type, second, contact(app, second, "update_user")
                    .text("UserID", member()).text("Position", "销售经理").build(), null);
            case CREATE_PARTY -> event(app, type, second, contact(app, second, "create_party")
                    .number("Id", 10 + random.nextInt(990)).text("Name", "华南区").number("ParentId", 1)
                    .number("Order", 1 + random.nextInt(100)).build(), null);
            case UPDATE_TAG -> event(app, type, second, contact(app, second, "update_tag")
                    .number("TagId", 1 + random.nextInt(50)).text("AddUserItems", member() + "," + member())
                    .text("DelUserItems", member()).text("AddPartyItems", "1,2").text("DelPartyItems", "")
                    .build(), null);
            case MSGAUDIT_NOTIFY -> event(app, type, second, new PlaintextXml()
                    .text("ToUserName", app.corpId()).text("FromUserName", "sys").number("CreateTime", t)
                    .text("MsgType", "event").number("AgentID", Long.parseLong(app.agentId()))
                    .text("Event", "msgaudit_notify").build(), null);
            case UNKNOWN_EVENT -> event(app, type, second, header(app, second, "sim_future_event")
                    .text("ChangeType", "something_new").text("Payload", randomString(12)).build(), null);
        };
    }

    private SimEvent textMessage(WeComApp app, Instant second, String member) {
        return event(app, EventType.TEXT_MESSAGE, second, new PlaintextXml()
                .text("ToUserName", app.corpId()).text("FromUserName", member).number("CreateTime", second.getEpochSecond())
                .text("MsgType", "text").text("Content", pick(TEXTS)).number("MsgId", msgId())
                .number("AgentID", Long.parseLong(app.agentId())).build(), null);
    }

    private SimEvent addContact(WeComApp app, Instant second, String changeType, boolean withWelcomeCode) {
        return addContact(app, second, changeType, withWelcomeCode, member(), "wm" + randomString(30));
    }

    private SimEvent addContact(WeComApp app, Instant second, String changeType, boolean withWelcomeCode,
                                String userId, String externalUserId) {
        remember(userId, externalUserId);
        String state = random.nextBoolean() ? "channel_" + random.nextInt(5) : "";
        if (changeType.equals("add_external_contact")) {
            directory.added(app.name(), userId, externalUserId, state, second);
        }
        PlaintextXml xml = externalContact(app, second, changeType)
                .text("UserID", userId).text("ExternalUserID", externalUserId)
                .text("State", state);
        String code = null;
        if (withWelcomeCode) {
            code = randomString(43);
            xml.text("WelcomeCode", code);
        }
        EventType type = changeType.equals("add_half_external_contact") ? EventType.ADD_HALF_EXTERNAL_CONTACT
                : withWelcomeCode ? EventType.ADD_EXTERNAL_CONTACT : EventType.ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE;
        SimEvent event = event(app, type, second, xml.build(), code);
        if (code != null) {
            welcomeCodes.issued(app.name(), code, second);
        }
        return event;
    }

    private String chatUpdate(WeComApp app, Instant second) {
        String detail = pick(new String[] {"add_member", "del_member", "change_owner", "change_name", "change_notice"});
        PlaintextXml xml = externalChat(app, second, "update").text("UpdateDetail", detail);
        if (detail.equals("add_member")) {
            xml.number("JoinScene", random.nextInt(4));
        } else if (detail.equals("del_member")) {
            xml.number("QuitScene", random.nextInt(2));
        }
        if (detail.endsWith("_member")) {
            List<String> changed = List.of("wm" + randomString(30), member());
            xml.number("MemChangeCnt", changed.size()).items("MemChangeList", changed);
        }
        return xml.text("LastMemVer", hex32()).text("CurMemVer", hex32()).build();
    }

    private PlaintextXml header(WeComApp app, Instant second, String event) {
        return new PlaintextXml().text("ToUserName", app.corpId()).text("FromUserName", "sys")
                .number("CreateTime", second.getEpochSecond()).text("MsgType", "event").text("Event", event);
    }

    private PlaintextXml externalContact(WeComApp app, Instant second, String changeType) {
        return header(app, second, "change_external_contact").text("ChangeType", changeType);
    }

    private PlaintextXml externalChat(WeComApp app, Instant second, String changeType) {
        return header(app, second, "change_external_chat").text("ChatId", "wr" + randomString(30))
                .text("ChangeType", changeType);
    }

    private PlaintextXml contact(WeComApp app, Instant second, String changeType) {
        return header(app, second, "change_contact").text("ChangeType", changeType);
    }

    private SimEvent event(WeComApp app, EventType type, Instant second, String xml, String welcomeCode) {
        String id = "sim-" + app.name() + "-" + sequence.incrementAndGet();
        return new SimEvent(id, app.name(), type, second, xml, welcomeCode);
    }

    private synchronized void remember(String userId, String externalUserId) {
        recentContacts.addFirst(new String[] {userId, externalUserId});
        if (recentContacts.size() > REMEMBERED_CONTACTS) {
            recentContacts.removeLast();
        }
    }

    private synchronized String[] knownContact() {
        if (recentContacts.isEmpty()) {
            return new String[] {member(), "wm" + randomString(30)};
        }
        List<String[]> list = new ArrayList<>(recentContacts);
        return list.get(random.nextInt(list.size()));
    }

    /** Real MsgIds use the full 64 bits; keep them above 2^53 so a double-based parser would be caught. */
    private long msgId() {
        return (1L << 60) + (random.nextLong() >>> 4);
    }

    private String member() {
        return pick(MEMBERS);
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private String hex32() {
        StringBuilder out = new StringBuilder(32);
        for (int i = 0; i < 32; i++) {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }

    private String randomString(int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(ALNUM.charAt(random.nextInt(ALNUM.length())));
        }
        return out.toString();
    }
}
