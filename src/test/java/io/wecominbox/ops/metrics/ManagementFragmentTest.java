package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.ops.health.BrokerTopology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The broker's management rules for the application's role (src/main/broker/wecom-inbox-management.xml) let it
 * read what the code reads and nothing else. Decided the way Artemis decides (JMXAccessControlList): an exact
 * method name, else the first prefix in the file's order, else "*"; reading attribute X is getX or isX.
 */
class ManagementFragmentTest {

    private static final Path FRAGMENT = Path.of("src/main/broker/wecom-inbox-management.xml");
    private static final String MONITOR = "monitor";
    private static final String ADMIN = "amq";

    /** One {@code <match>}: its rules in file order. */
    record Match(String key, List<String[]> rules) {
        Set<String> rolesFor(String method) {
            for (String[] rule : rules) {
                if (rule[0].equals(method)) {
                    return roles(rule);
                }
            }
            for (String[] rule : rules) {
                if (rule[0].endsWith("*") && !rule[0].equals("*") && method.startsWith(rule[0].substring(0, rule[0].length() - 1))) {
                    return roles(rule);
                }
            }
            for (String[] rule : rules) {
                if (rule[0].equals("*")) {
                    return roles(rule);
                }
            }
            return Set.of();
        }

        private static Set<String> roles(String[] rule) {
            return new LinkedHashSet<>(List.of(rule[1].split("\\s*,\\s*")));
        }
    }

    static Match match(String key) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        NodeList matches = factory.newDocumentBuilder().parse(FRAGMENT.toFile()).getElementsByTagNameNS("*", "match");
        for (int i = 0; i < matches.getLength(); i++) {
            Element m = (Element) matches.item(i);
            if (m.getAttribute("domain").equals("org.apache.activemq.artemis") && m.getAttribute("key").equals(key)) {
                List<String[]> rules = new ArrayList<>();
                NodeList access = m.getElementsByTagNameNS("*", "access");
                for (int j = 0; j < access.getLength(); j++) {
                    Element a = (Element) access.item(j);
                    rules.add(new String[] {a.getAttribute("method"), a.getAttribute("roles")});
                }
                return new Match(key, rules);
            }
        }
        throw new AssertionError("no <match> for " + key + " in " + FRAGMENT);
    }

    @Test
    void theMonitorReadsEveryQueueAttributeTheApplicationReads() throws Exception {
        Match queues = match("subcomponent=queues");
        Set<String> read = new LinkedHashSet<>(JolokiaQueueReader.ATTRIBUTES);
        read.addAll(BrokerTopology.QUEUE_ATTRIBUTES);
        for (String attribute : read) {
            assertTrue(queues.rolesFor("get" + attribute).contains(MONITOR) && queues.rolesFor("is" + attribute).contains(MONITOR),
                    "queue attribute " + attribute);
        }
    }

    @Test
    void theMonitorReadsEveryDivertAttributeTheApplicationReads() throws Exception {
        Match diverts = match("subcomponent=diverts");
        for (String attribute : BrokerTopology.DIVERT_ATTRIBUTES) {
            assertTrue(diverts.rolesFor("get" + attribute).contains(MONITOR), "divert attribute " + attribute);
        }
    }

    @Test
    void theMonitorInvokesNoOperationAndReadsNoMessage() throws Exception {
        Match queues = match("subcomponent=queues");
        for (String operation : List.of("removeMessages", "removeAllMessages", "removeMessage", "moveMessages",
                "moveMessage", "sendMessage", "sendMessagesToDeadLetterAddress", "retryMessages", "expireMessages",
                "changeMessagesPriority", "pause", "resume", "disable", "enable", "resetAllGroups", "resetMessageCounter",
                "flushExecutor", "deliverScheduledMessages", "browse", "listMessages", "listMessagesAsJSON",
                "listScheduledMessages", "listDeliveringMessagesAsJSON", "countMessages", "getFirstMessageAsJSON",
                "setDeadLetterAddress", "setExpiryAddress")) {
            assertFalse(queues.rolesFor(operation).contains(MONITOR), "queue operation " + operation);
            assertTrue(queues.rolesFor(operation).contains(ADMIN), "the administrator keeps " + operation);
        }
        Match diverts = match("subcomponent=diverts");
        for (String operation : List.of("start", "stop", "setFilter", "listNetworkTopology")) {
            assertFalse(diverts.rolesFor(operation).contains(MONITOR), "divert operation " + operation);
        }
    }

    @Test
    void theMonitorIsNamedOnlyBesideGetAndIs() throws Exception {
        for (Match m : List.of(match("subcomponent=queues"), match("subcomponent=diverts"))) {
            for (String[] rule : m.rules()) {
                if (Match.roles(rule).contains(MONITOR)) {
                    assertTrue(rule[0].equals("get*") || rule[0].equals("is*"), m.key() + ": monitor on " + rule[0]);
                }
                assertTrue(Match.roles(rule).contains(ADMIN), m.key() + ": the administrator on " + rule[0]);
            }
            assertEquals(1, m.rules().stream().filter(r -> r[0].equals("*")).count(), m.key() + ": one catch-all");
        }
    }
}
