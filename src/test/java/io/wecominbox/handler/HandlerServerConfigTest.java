package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.HandlersInCode;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.MessageListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Liberty drop-in every server gets (liberty/configDropins/defaults/wecom-handlers.xml) declares exactly
 * the handlers in the code: it is generated from their descriptors ({@link HandlerServerConfig}) and committed,
 * like the broker file (BrokerFragmentTest), so a reviewer sees the server's change in the diff and the deploy
 * route copies a file instead of running a build step. When a handler changes, this test fails and shows the
 * file to write; {@code -Dhandler.config.write=true} writes it.
 */
class HandlerServerConfigTest {

    static final Path DROP_IN = Path.of("liberty/configDropins/defaults/wecom-handlers.xml");
    /** The server's configuration: our server.xml and the application's part it includes. */
    private static final List<Path> SERVER_CONFIG = List.of(Path.of("server.xml"), Path.of("liberty/wecom-inbox.xml"));

    @Test
    void theDropInDeclaresTheHandlersInTheCode() throws Exception {
        List<DeclaredHandler> handlers = HandlersInCode.declared();
        assertTrue(handlers.size() >= 5, "found the handlers: " + handlers);
        String expected = HandlerServerConfig.dropIn(handlers, Map.of(
            HandlerServerConfig.PROBE_SESSIONS, serverVariable(HandlerServerConfig.PROBE_SESSIONS),
            HandlerServerConfig.BACKGROUND_CONNECTIONS, serverVariable(HandlerServerConfig.BACKGROUND_CONNECTIONS),
            HandlerServerConfig.INGEST_CONNECTIONS, serverVariable(HandlerServerConfig.INGEST_CONNECTIONS)));
        writeIfAsked(DROP_IN, expected);
        assertEquals(expected, Files.readString(DROP_IN, StandardCharsets.UTF_8), DROP_IN
            + " does not declare the handlers in the code; rerun with -Dhandler.config.write=true to regenerate it");
    }

    @Test
    void serverXmlLeavesHandlerQueuesConsumersAndPoolSumsToTheDropIn() throws Exception {
        String server = serverConfig();
        for (DeclaredHandler h : HandlersInCode.declared()) {
            assertFalse(server.contains("\"" + h.sessionsVariable() + "\""), h.sessionsVariable() + " declared twice");
            assertFalse(server.contains(h.queueJndiName()), h.queueJndiName() + " declared twice");
            assertFalse(server.contains("/" + h.consumerBean()), h.consumerBean() + " declared twice");
        }
        assertFalse(server.contains("name=\"db.pool.size\""), "db.pool.size is the drop-in's sum");
        assertFalse(server.contains("name=\"background.jms.pool.size\""),
            "background.jms.pool.size is the drop-in's sum");
    }

    /**
     * Each handler keeps a message-driven bean class of its own ({@code <Name>EventConsumer}: one generic bean
     * declared per handler in ejb-jar.xml cannot tell which declaration it is, since EJBs in a WAR share the
     * module's java:comp), so this checks the two agree: every handler has its bean, injecting that handler,
     * and every message-driven bean has its activation spec in server.xml or the drop-in.
     */
    @Test
    void everyHandlerHasItsConsumerBeanAndEveryConsumerBeanItsActivationSpec() throws Exception {
        Map<String, Class<?>> beans = new TreeMap<>();
        for (Class<?> type : HandlersInCode.classes("io/wecominbox")) {
            MessageDriven mdb = type.getAnnotation(MessageDriven.class);
            if (mdb != null) {
                beans.put(mdb.name().isEmpty() ? type.getSimpleName() : mdb.name(), type);
            }
        }
        String config = serverConfig()
            + Files.readString(DROP_IN, StandardCharsets.UTF_8);
        for (String bean : beans.keySet()) {
            assertTrue(config.contains("<jmsActivationSpec id=\"wecom-inbox/" + bean + "\""), "message-driven bean "
                + bean + " has no activation spec wecom-inbox/" + bean + " in server.xml or " + DROP_IN);
        }
        for (DeclaredHandler h : HandlersInCode.declared()) {
            Class<?> bean = beans.get(h.consumerBean());
            assertTrue(bean != null, "handler " + h.name() + " has no message-driven bean " + h.consumerBean()
                + " (docs/handlers.md)");
            assertTrue(MessageListener.class.isAssignableFrom(bean), bean + " is not a MessageListener");
            assertTrue(Arrays.stream(bean.getDeclaredFields()).anyMatch(f -> f.isAnnotationPresent(Inject.class)
                    && EventHandler.class.isAssignableFrom(f.getType()) && f.getType() != EventHandler.class
                    && DeclaredHandler.of(f.getType()).name().equals(h.name())),
                bean + " does not inject the handler " + h.name());
        }
    }

    private static String serverConfig() throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path file : SERVER_CONFIG) {
            text.append(Files.readString(file, StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    /** The server configuration's default of a numeric variable. */
    static int serverVariable(String name) throws Exception {
        Matcher m = Pattern.compile("<variable name=\"" + Pattern.quote(name) + "\" defaultValue=\"([0-9]+)\"/>")
            .matcher(serverConfig());
        assertTrue(m.find(), "server.xml and liberty/wecom-inbox.xml have no numeric variable " + name);
        return Integer.parseInt(m.group(1));
    }

    static void writeIfAsked(Path file, String expected) throws Exception {
        if (Boolean.getBoolean("handler.config.write")
                && !(Files.exists(file) && expected.equals(Files.readString(file, StandardCharsets.UTF_8)))) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, expected, StandardCharsets.UTF_8);
        }
    }
}
