package io.wecominbox.devstack;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Merges WeCom Inbox's management fragment (src/main/broker/wecom-inbox-management.xml) into a broker's
 * etc/management.xml, as docs/deploy.md tells an admin to do by hand: each {@code <match>} of the fragment's
 * {@code <role-access>} replaces the broker's match with the same domain and key, or is added. Running it twice
 * changes nothing more. JDK only, so it runs as a source file:
 * {@code java MergeManagementFragment.java <management.xml> <fragment.xml>}.
 */
public final class MergeManagementFragment {

    static final String NS = "http://activemq.apache.org/schema";

    private MergeManagementFragment() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: java MergeManagementFragment.java <management.xml to update> <fragment.xml>");
            System.exit(2);
        }
        File target = new File(args[0]);
        Document management = parse(target);
        try {
            merge(management, parse(new File(args[1])));
        } catch (IllegalArgumentException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(1);
        }
        var out = TransformerFactory.newInstance().newTransformer();
        out.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        out.transform(new DOMSource(management), new StreamResult(target));
    }

    static void merge(Document management, Document fragment) {
        // without <authorisation> the broker checks no management role at all here (or checks them in
        // broker.xml's security-settings instead): adding matches would only look like a restriction
        Element authorisation = only(management.getDocumentElement(), "authorisation",
                "no <authorisation> element: management roles are not checked in this file");
        Element roleAccess = child(authorisation, "role-access");
        if (roleAccess == null) {
            roleAccess = (Element) authorisation.appendChild(management.createElementNS(NS, "role-access"));
        }
        Element fragmentAccess = only(only(fragment.getDocumentElement(), "authorisation", "fragment: no <authorisation>"),
                "role-access", "fragment: no <role-access>");
        for (Element match : children(fragmentAccess)) {
            for (Element existing : children(roleAccess)) {
                if (existing.getLocalName().equals("match") && sameTarget(existing, match)) {
                    roleAccess.removeChild(existing);
                }
            }
            roleAccess.appendChild(management.importNode(match, true));
        }
    }

    private static boolean sameTarget(Element a, Element b) {
        return a.getAttribute("domain").equals(b.getAttribute("domain")) && a.getAttribute("key").equals(b.getAttribute("key"));
    }

    private static Element only(Element parent, String localName, String missing) {
        Element found = child(parent, localName);
        if (found == null) {
            throw new IllegalArgumentException(missing);
        }
        return found;
    }

    private static Element child(Element parent, String localName) {
        for (Element e : children(parent)) {
            if (e.getLocalName().equals(localName) && NS.equals(e.getNamespaceURI())) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    static Document parse(File file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file);
    }
}
