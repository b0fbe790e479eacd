package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.dedup.StoreDownAction;
import io.wecominbox.handler.bot.BotHandler;
import io.wecominbox.handler.contact.ContactHandler;
import io.wecominbox.handler.conversation.ConversationHandler;
import io.wecominbox.handler.crm.CrmHandler;
import io.wecominbox.handler.welcome.WelcomeHandler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The descriptors say what the five handlers' hand-written methods returned before them (names, types,
 * keying, policies), and the names derived for the server are the ones server.xml used.
 */
class DeclaredHandlerTest {

    private static final DedupPolicy COLD_REJECTS = DedupPolicy.builder().onHotStoreDown(StoreDownAction.PROCEED)
        .onColdStoreDown(StoreDownAction.REJECT).build();

    @Test
    void theHandlersDeclareWhatTheirMethodsUsedToReturn() {
        check(new CrmHandler(), "crm", Set.of("change_external_contact", "change_external_chat", "change_external_tag",
            "text"), true, 2, COLD_REJECTS);
        check(new ContactHandler(), "contact", Set.of("change_external_contact"), true, 2,
            DedupPolicy.naturallyIdempotentHandler());
        check(new ConversationHandler(), "conversation", Set.of("text", "image", "voice", "video", "location", "link",
            "file"), false, 2, DedupPolicy.naturallyIdempotentHandler());
        check(new WelcomeHandler(), "welcome", Set.of("change_external_contact"), false, 4, COLD_REJECTS);
        check(new BotHandler(), "bot", Set.of("text"), false, 2, COLD_REJECTS);
    }

    @Test
    void onlyTheWelcomesEventTypesTakeTheRelaysDeadlineLane() {
        List<DeclaredHandler> five = Stream.of(CrmHandler.class, ContactHandler.class, ConversationHandler.class,
            WelcomeHandler.class, BotHandler.class).map(DeclaredHandler::of).toList();
        assertEquals(List.of("welcome"), five.stream().filter(DeclaredHandler::deadlineLane)
            .map(DeclaredHandler::name).toList());
        assertEquals(Set.of("change_external_contact"), HandlerCatalog.deadlineLaneTypes(five));
        assertEquals(Set.of(), HandlerCatalog.deadlineLaneTypes(List.of(DeclaredHandler.of(CrmHandler.class))),
            "no deadline handler deployed: no lane");
    }

    @Test
    void aProxySubclassShowsItsHandlersDeclaration() {
        class Proxy extends CrmHandler {
        }
        assertEquals("crm", new Proxy().name());
    }

    @Test
    void theServerNamesAreTheOnesServerXmlUsed() {
        DeclaredHandler crm = DeclaredHandler.of(CrmHandler.class);
        assertEquals("crmHandlerQueue", crm.queueId());
        assertEquals("jms/queue/handler/crm", crm.queueJndiName());
        assertEquals("CrmEventConsumer", crm.consumerBean());
        assertEquals("handler.crm.sessions", crm.sessionsVariable());
        DeclaredHandler dashed = new DeclaredHandler("vip-welcome", Set.of("text"), false, false, Urgency.CATCH_UP, 1, COLD_REJECTS);
        assertEquals("vipWelcomeHandlerQueue", dashed.queueId());
        assertEquals("VipWelcomeEventConsumer", dashed.consumerBean());
    }

    @Test
    void theWelcomeAndTheBotAreWaitedForAndTheOthersCatchUpBelowThem() {
        assertEquals(Urgency.PROMPT, DeclaredHandler.of(WelcomeHandler.class).urgency());
        assertEquals(Urgency.PROMPT, DeclaredHandler.of(BotHandler.class).urgency());
        for (Class<?> type : List.of(CrmHandler.class, ConversationHandler.class, ContactHandler.class)) {
            assertEquals(Urgency.CATCH_UP, DeclaredHandler.of(type).urgency(), type.getSimpleName());
        }
        assertEquals(Thread.NORM_PRIORITY, Urgency.PROMPT.javaPriority(), "the callback URL's threads' priority");
        assertTrue(Urgency.CATCH_UP.javaPriority() < Urgency.PROMPT.javaPriority());
    }

    @Test
    void windowsAndBadDeclarationsAreRead() {
        @HandlerDescriptor(name = "short", eventTypes = "text", hotWindow = "PT5M", coldWindow = "P7D")
        class Short implements EventHandler {
            @Override
            public void handle(HandledEvent event) {
            }
        }
        assertEquals(Duration.ofMinutes(5), new Short().policy().hotWindow());
        assertEquals(Duration.ofDays(7), new Short().policy().coldWindow());
        assertThrows(IllegalArgumentException.class,
            () -> new DeclaredHandler("Crm", Set.of("text"), false, false, Urgency.CATCH_UP, 1, COLD_REJECTS));
        assertThrows(IllegalArgumentException.class,
            () -> new DeclaredHandler("crm", Set.of(), false, false, Urgency.CATCH_UP, 1, COLD_REJECTS));
        assertThrows(IllegalStateException.class, () -> DeclaredHandler.of(String.class));
    }

    private static void check(EventHandler handler, String name, Set<String> types, boolean keyed, int sessions,
                              DedupPolicy policy) {
        assertEquals(name, handler.name());
        assertEquals(types, handler.eventTypes());
        assertEquals(keyed, handler.keyedByRelationship(), name);
        assertEquals(policy, handler.policy(), name);
        assertEquals(sessions, handler.descriptor().sessions(), name);
        assertFalse(handler.eventTypes().isEmpty());
        assertTrue(HandlerRoute.of(handler).equals(handler.descriptor().route()));
    }
}
