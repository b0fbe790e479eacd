package io.wecominbox.simulator.platform;

import java.util.List;

/**
 * Writes the plaintext event XML the way WeCom does: strings in CDATA, numbers bare, no declaration,
 * no indentation. Keeps the generator free of string concatenation noise.
 */
final class PlaintextXml {

    private final StringBuilder xml = new StringBuilder("<xml>");

    PlaintextXml text(String name, String value) {
        xml.append('<').append(name).append('>').append(cdata(value)).append("</").append(name).append('>');
        return this;
    }

    PlaintextXml number(String name, long value) {
        xml.append('<').append(name).append('>').append(value).append("</").append(name).append('>');
        return this;
    }

    /** WeCom lists such as MemChangeList: {@code <MemChangeList><Item>a</Item>...</MemChangeList>}. */
    PlaintextXml items(String name, List<String> values) {
        xml.append('<').append(name).append('>');
        for (String value : values) {
            xml.append("<Item>").append(cdata(value)).append("</Item>");
        }
        xml.append("</").append(name).append('>');
        return this;
    }

    String build() {
        return xml + "</xml>";
    }

    /** A "]]>" inside a value would end the section early; split it across two sections as XML requires. */
    static String cdata(String value) {
        return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>";
    }
}
