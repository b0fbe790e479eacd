package io.wecominbox.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

class MergeManagementFragmentTest {

    /** The shape `artemis create` writes: one domain-wide match for the admin role. */
    private static final String CREATED = """
            <management-context xmlns="http://activemq.apache.org/schema">
              <authorisation>
                <allowlist><entry domain="hawtio"/></allowlist>
                <default-access><access method="get*" roles="amq"/></default-access>
                <role-access>
                  <match domain="org.apache.activemq.artemis">
                    <access method="*" roles="amq"/>
                  </match>
                </role-access>
              </authorisation>
            </management-context>
            """;

    @Test
    void addsTheFragmentsMatchesAndKeepsTheRest() throws Exception {
        Document management = read(CREATED);
        MergeManagementFragment.merge(management, fragment());
        var matches = management.getElementsByTagNameNS(MergeManagementFragment.NS, "match");
        assertEquals(3, matches.getLength(), text(management));
        assertEquals("", ((Element) matches.item(0)).getAttribute("key"), "the domain-wide match stays");
        assertEquals("subcomponent=queues", ((Element) matches.item(1)).getAttribute("key"));
        assertEquals("subcomponent=diverts", ((Element) matches.item(2)).getAttribute("key"));
        assertTrue(text(management).contains("hawtio"), "the allow-list stays");
    }

    @Test
    void mergingAgainChangesNothing() throws Exception {
        Document once = read(CREATED);
        MergeManagementFragment.merge(once, fragment());
        Document twice = read(text(once));
        MergeManagementFragment.merge(twice, fragment());
        assertEquals(text(once), text(twice));
    }

    @Test
    void aBrokerWithoutAuthorisationHereIsRefused() throws Exception {
        Document none = read("<management-context xmlns=\"http://activemq.apache.org/schema\"/>");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MergeManagementFragment.merge(none, fragment()));
        assertTrue(e.getMessage().contains("authorisation"), e.getMessage());
    }

    private static Document fragment() throws Exception {
        return MergeManagementFragment.parse(new File("src/main/broker/wecom-inbox-management.xml"));
    }

    private static Document read(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static String text(Document document) throws Exception {
        StringWriter out = new StringWriter();
        TransformerFactory.newInstance().newTransformer().transform(new DOMSource(document), new StreamResult(out));
        return out.toString();
    }
}
