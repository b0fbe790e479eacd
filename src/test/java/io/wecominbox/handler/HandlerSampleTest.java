package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.handler.sample.TagAuditHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/handlers.md, "Adding a handler", is built from code: its first Java block is the sample handler (between
 * its docs markers), its second the crm consumer bean renamed, and its XML block what the generator makes of the
 * sample's descriptor.
 */
class HandlerSampleTest {

    private static final Path PAGE = Path.of("docs/handlers.md");
    private static final Path SAMPLE = Path.of("src/test/java/io/wecominbox/handler/sample");
    private static final Path CRM_CONSUMER = Path.of("src/main/java/io/wecominbox/handler/crm/CrmEventConsumer.java");

    @Test
    void thePagesExampleIsTheSampleAndWhatTheGeneratorMakesOfIt() throws Exception {
        List<String> blocks = blocks();
        assertEquals(3, blocks.size(), "the section's code blocks: " + blocks);
        assertEquals(marked(SAMPLE.resolve("TagAuditHandler.java"), "handler"), blocks.get(0));
        // the bean to write is crm's with the names changed: no sample bean, so no sixth copy to keep in step
        String crm = Files.readString(CRM_CONSUMER, StandardCharsets.UTF_8);
        assertEquals(crm.substring(crm.indexOf("@MessageDriven")).replace("Crm", "TagAudit"), blocks.get(1));
        DeclaredHandler sample = DeclaredHandler.of(TagAuditHandler.class);
        assertEquals(HandlerServerConfig.sessions(sample) + HandlerServerConfig.fragment(sample), blocks.get(2));
        assertEquals("TagAuditEventConsumer", sample.consumerBean());
    }

    @Test
    void theSampleIsNoHandlerOfTheApplication() throws Exception {
        assertTrue(io.wecominbox.testsupport.HandlersInCode.declared().stream()
            .noneMatch(h -> h.name().equals("tag-audit")), "the sample must stay out of the WAR");
    }

    /** The fenced blocks of the section "Adding a handler", each with its final newline. */
    private static List<String> blocks() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int from = page.indexOf("\n## Adding a handler\n");
        assertTrue(from >= 0, PAGE + " has no section \"Adding a handler\"");
        int to = page.indexOf("\n## ", from + 1);
        String section = page.substring(from, to < 0 ? page.length() : to);
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("(?s)\n```[a-z]*\n(.*?)```\n").matcher(section);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    private static String marked(Path file, String marker) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int from = text.indexOf("// docs:" + marker + "\n");
        int to = text.indexOf("// docs:end\n", from);
        assertTrue(from >= 0 && to > from, file + " lacks its docs:" + marker + " markers");
        return text.substring(from + ("// docs:" + marker + "\n").length(), to);
    }
}
