package io.wecominbox.devstack;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Merges WeCom Inbox's broker fragment (src/main/broker/wecom-inbox-broker.xml) into a broker's etc/broker.xml,
 * the way docs/deploy.md tells an admin to do it by hand: each entry of a fragment section (security-settings,
 * address-settings, addresses, diverts) goes into the broker's section of the same name, replacing an entry
 * with the same match/name; a plain setting replaces the broker's. Running it twice changes nothing more.
 * JDK only, so it runs as a source file: {@code java MergeBrokerFragment.java <broker.xml> <fragment.xml>}.
 */
public final class MergeBrokerFragment {

    private static final String CORE = "urn:activemq:core";

    private MergeBrokerFragment() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: java MergeBrokerFragment.java <broker.xml to update> <fragment.xml>");
            System.exit(2);
        }
        File target = new File(args[0]);
        Document broker = parse(target);
        merge(broker, parse(new File(args[1])));
        Transformer out = TransformerFactory.newInstance().newTransformer();
        out.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        out.transform(new DOMSource(broker), new StreamResult(target));
    }

    static void merge(Document broker, Document fragment) {
        Element brokerCore = core(broker);
        for (Element section : children(core(fragment))) {
            Element existing = child(brokerCore, section.getLocalName());
            if (children(section).isEmpty()) {
                // a plain setting such as <persist-delivery-count-before-delivery>
                Node copy = broker.importNode(section, true);
                if (existing == null) {
                    brokerCore.appendChild(copy);
                } else {
                    brokerCore.replaceChild(copy, existing);
                }
                continue;
            }
            if (existing == null) {
                existing = (Element) brokerCore.appendChild(broker.createElementNS(CORE, section.getLocalName()));
            }
            for (Element entry : children(section)) {
                Element same = sameEntry(existing, entry);
                if (same != null) {
                    existing.removeChild(same);
                }
                existing.appendChild(broker.importNode(entry, true));
            }
        }
    }

    private static Element sameEntry(Element section, Element entry) {
        String key = key(entry);
        for (Element candidate : children(section)) {
            if (candidate.getLocalName().equals(entry.getLocalName()) && key.equals(key(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    private static String key(Element entry) {
        return entry.hasAttribute("match") ? "match=" + entry.getAttribute("match") : "name=" + entry.getAttribute("name");
    }

    private static Element core(Document document) {
        var cores = document.getElementsByTagNameNS(CORE, "core");
        if (cores.getLength() != 1) {
            throw new IllegalArgumentException("expected one <core xmlns=\"" + CORE + "\"> element");
        }
        return (Element) cores.item(0);
    }

    private static Element child(Element parent, String localName) {
        for (Element e : children(parent)) {
            if (e.getLocalName().equals(localName)) {
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

    private static Document parse(File file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        return builder.parse(file);
    }
}
