package io.wecominbox.e2e;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A realistic stream for the end-to-end cases: customers adding members (most with a WelcomeCode), other
 * contact changes, customer groups and tags, members' text messages the bot answers, and address-book
 * changes of the second app that only the ingest keeps. A share of adds and messages carries the chaos
 * marker, so every handler that takes them fails once after its effect and JMS redelivers them.
 */
public final class EventMix {

    /** The marker the test drop-in gives the chaos switch (src/test/liberty/.../dedup-test.xml). */
    static final String CHAOS_MARKER = "CHAOS_FAIL_AFTER_HANDLE";
    /** The app with a welcome text and a bot reply configured (src/test/liberty/.../handlers-test.xml). */
    static final String CUSTOMER = "customer";
    static final String CONTACTS = "contacts";

    private static final Pattern STATE = Pattern.compile("<State><!\\[CDATA\\[(.*?)]]></State>");

    private record Share(String app, EventType type, int weight) {
    }

    private static final List<Share> SHARES = List.of(
        new Share(CUSTOMER, EventType.ADD_EXTERNAL_CONTACT, 26),
        new Share(CUSTOMER, EventType.TEXT_MESSAGE, 24),
        new Share(CUSTOMER, EventType.ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE, 4),
        new Share(CUSTOMER, EventType.ADD_HALF_EXTERNAL_CONTACT, 4),
        new Share(CUSTOMER, EventType.EDIT_EXTERNAL_CONTACT, 8),
        new Share(CUSTOMER, EventType.DEL_EXTERNAL_CONTACT, 4),
        new Share(CUSTOMER, EventType.DEL_FOLLOW_USER, 2),
        new Share(CUSTOMER, EventType.TRANSFER_FAIL, 2),
        new Share(CUSTOMER, EventType.EXTERNAL_CHAT_CREATE, 3),
        new Share(CUSTOMER, EventType.EXTERNAL_CHAT_UPDATE, 5),
        new Share(CUSTOMER, EventType.EXTERNAL_CHAT_DISMISS, 1),
        new Share(CUSTOMER, EventType.EXTERNAL_TAG_CHANGE, 4),
        new Share(CONTACTS, EventType.CREATE_USER, 3),
        new Share(CONTACTS, EventType.UPDATE_USER, 3),
        new Share(CONTACTS, EventType.CREATE_PARTY, 2),
        new Share(CONTACTS, EventType.UPDATE_TAG, 2),
        new Share(CONTACTS, EventType.MSGAUDIT_NOTIFY, 2),
        new Share(CONTACTS, EventType.UNKNOWN_EVENT, 1));
    private static final int TOTAL_WEIGHT = SHARES.stream().mapToInt(Share::weight).sum();

    private final String caseTag;
    private final double chaosShare;
    private final Random random;
    private final AtomicInteger members = new AtomicInteger();

    /** {@code caseTag} makes the bot's recipients unique per case; {@code chaosShare} of adds and texts fail once. */
    public EventMix(String caseTag, double chaosShare, long seed) {
        this.caseTag = caseTag;
        this.chaosShare = chaosShare;
        this.random = new Random(seed);
    }

    synchronized SimEvent next(WeComSimulator sim) {
        Share share = pick();
        boolean chaos = random.nextDouble() < chaosShare;
        if (share.type() == EventType.TEXT_MESSAGE) {
            // message/send names only the recipient: one member per message makes replies countable per message
            String member = "e2e." + caseTag + "." + members.incrementAndGet() + (chaos ? "." + CHAOS_MARKER : "");
            return sim.newTextMessageFrom(share.app(), member);
        }
        SimEvent event = sim.newEvent(share.app(), share.type());
        return chaos ? withChaosState(event) : event;
    }

    private Share pick() {
        int roll = random.nextInt(TOTAL_WEIGHT);
        for (Share share : SHARES) {
            roll -= share.weight();
            if (roll < 0) {
                return share;
            }
        }
        throw new IllegalStateException("weights");
    }

    /** Adds carry a State (the channel): the marker goes there, as a customer-chosen value would. */
    private static SimEvent withChaosState(SimEvent event) {
        Matcher state = STATE.matcher(event.xml());
        if (!state.find()) {
            return event;
        }
        String xml = state.replaceFirst(Matcher.quoteReplacement(
            "<State><![CDATA[" + state.group(1) + CHAOS_MARKER + "]]></State>"));
        return new SimEvent(event.id(), event.app(), event.type(), event.createTime(), xml, event.welcomeCode());
    }
}
