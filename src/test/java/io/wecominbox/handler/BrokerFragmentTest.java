package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.wecominbox.testsupport.HandlersInCode;
import org.junit.jupiter.api.Test;

/**
 * The broker file an admin merges (src/main/broker/wecom-inbox-broker.xml) routes to exactly the handlers the
 * code declares: its handler queues and diverts are generated from each handler's name and event types
 * ({@link HandlerRoute}). When a handler changes, this test fails and shows the block to write;
 * {@code -Dbroker.fragment.write=true} writes it.
 */
class BrokerFragmentTest {

    static final Path FRAGMENT = Path.of("src/main/broker/wecom-inbox-broker.xml");
    private static final String QUEUES = "handler queues";
    private static final String DIVERTS = "handler diverts";

    @Test
    void generatedQueuesAndDivertsMatchTheHandlersInTheCode() throws Exception {
        List<HandlerRoute> routes = HandlersInCode.routes();
        assertTrue(routes.size() >= 5, "found the handlers: " + routes);
        String file = Files.readString(FRAGMENT, StandardCharsets.UTF_8);
        String expected = replace(replace(file, QUEUES, queues(routes)), DIVERTS, diverts(routes));
        // handler.config.write too: one flag regenerates everything a handler's descriptor drives
        boolean write = Boolean.getBoolean("broker.fragment.write") || Boolean.getBoolean("handler.config.write");
        if (write && !expected.equals(file)) {
            Files.writeString(FRAGMENT, expected, StandardCharsets.UTF_8);
            file = expected;
        }
        assertEquals(expected, file, FRAGMENT + " does not route to the handlers in the code; rerun with"
                + " -Dbroker.fragment.write=true to regenerate it");
    }

    @Test
    void noHandUpkeptEntryNamesAHandlerTheCodeDoesNotHave() throws Exception {
        List<String> names = HandlersInCode.routes().stream().map(HandlerRoute::handler).toList();
        String outsideGenerated = Files.readString(FRAGMENT, StandardCharsets.UTF_8)
                .replaceAll("(?s)<!-- GENERATED .*?<!-- END GENERATED [^>]*-->", "");
        Matcher m = Pattern.compile("wecom\\.handler\\.([a-z0-9-]+)").matcher(outsideGenerated);
        while (m.find()) {
            assertTrue(names.contains(m.group(1)), "the broker file tunes wecom.handler." + m.group(1)
                    + " but no handler of that name exists (handlers: " + names + ")");
        }
    }

    @Test
    void aDivertFilterReadsBackAsTheHandlersTypes() {
        HandlerRoute route = new HandlerRoute("crm", java.util.Set.of("text", "change_external_tag"));
        assertEquals("eventType IN ('change_external_tag','text')", route.filter());
        assertEquals(route.eventTypes(), HandlerRoute.typesOf(route.filter()).orElseThrow());
        assertEquals(java.util.Set.of("text"), HandlerRoute.typesOf("eventType = 'text'").orElseThrow());
        assertFalse(HandlerRoute.typesOf("eventType LIKE 'te%'").isPresent(), "another form is not ours");
    }

    private static String queues(List<HandlerRoute> routes) {
        StringBuilder out = new StringBuilder();
        for (HandlerRoute r : routes) {
            out.append("      <address name=\"").append(r.queue()).append("\"><anycast><queue name=\"")
                    .append(r.queue()).append("\"/></anycast></address>\n");
        }
        return out.toString();
    }

    private static String diverts(List<HandlerRoute> routes) {
        StringBuilder out = new StringBuilder();
        for (HandlerRoute r : routes) {
            out.append("      <divert name=\"").append(r.divert()).append("\">\n")
                    .append("        <address>").append(HandlerRoute.EVENTS_ADDRESS).append("</address>\n")
                    .append("        <forwarding-address>").append(r.queue()).append("</forwarding-address>\n")
                    .append("        <filter string=\"").append(r.filter()).append("\"/>\n")
                    .append("        <routing-type>ANYCAST</routing-type>\n")
                    .append("        <exclusive>false</exclusive>\n")
                    .append("      </divert>\n");
        }
        return out.toString();
    }

    /** The file with the text between the two markers of {@code block} replaced. */
    private static String replace(String file, String block, String generated) {
        String begin = "<!-- GENERATED " + block + " (HandlerRoute) -->\n";
        String end = "      <!-- END GENERATED " + block + " -->";
        int from = file.indexOf(begin);
        int to = file.indexOf(end);
        assertTrue(from >= 0 && to > from, FRAGMENT + " lost its markers for the " + block);
        return file.substring(0, from + begin.length()) + generated + file.substring(to);
    }
}
