package io.wecominbox.ops.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The transaction manager's recovery log is written and deleted at every two-phase commit. Its data source asks
 * PostgreSQL to plan each statement for the table as it is: a plan cached while the table was tiny read every dead
 * row of the run at each delete on a database without autovacuum (docs/benchmarks.md, "The transaction log's
 * delete, planned for the table as it is").
 */
class TransactionLogPlansTest {

    @Test
    void theTransactionLogsDataSourcePlansEachStatementForTheTableAsItIs() throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        var server = factory.newDocumentBuilder().parse(new File("server.xml")).getDocumentElement();
        String logSource = ((Element) server.getElementsByTagName("transaction").item(0)).getAttribute("dataSourceRef");
        Element source = byId(server.getElementsByTagName("dataSource"), logSource);
        Element properties = (Element) source.getElementsByTagName("properties.postgresql").item(0);
        assertTrue(properties.getAttribute("options").contains("-c plan_cache_mode=force_custom_plan"),
                "data source " + logSource + ": options=\"" + properties.getAttribute("options") + "\"");
        assertEquals("false", source.getAttribute("transactional"), "the log's own writes are not in XA");
    }

    private static Element byId(NodeList elements, String id) {
        for (int i = 0; i < elements.getLength(); i++) {
            Element e = (Element) elements.item(i);
            if (id.equals(e.getAttribute("id"))) {
                return e;
            }
        }
        throw new AssertionError("server.xml has no dataSource " + id);
    }
}
