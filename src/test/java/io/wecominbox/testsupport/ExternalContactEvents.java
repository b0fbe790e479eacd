package io.wecominbox.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;

/** Plaintext change_external_contact callbacks with the fields a test chooses (as WeCom lays them out). */
public final class ExternalContactEvents {

    private final String corpId;

    public ExternalContactEvents(String corpId) {
        this.corpId = corpId;
    }

    /** An event; {@code fields} in order after ChangeType (e.g. UserID, ExternalUserID, State, WelcomeCode). */
    public String xml(String changeType, long createTime, Map<String, String> fields) {
        StringBuilder xml = new StringBuilder("<xml><ToUserName><![CDATA[").append(corpId)
            .append("]]></ToUserName><FromUserName><![CDATA[sys]]></FromUserName><CreateTime>").append(createTime)
            .append("</CreateTime><MsgType><![CDATA[event]]></MsgType>")
            .append("<Event><![CDATA[change_external_contact]]></Event><ChangeType><![CDATA[").append(changeType)
            .append("]]></ChangeType>");
        fields.forEach((name, value) -> xml.append('<').append(name).append("><![CDATA[").append(value)
            .append("]]></").append(name).append('>'));
        return xml.append("</xml>").toString();
    }

    /** Fields in the given order: name, value, name, value, ... */
    public static Map<String, String> fields(String... namesAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }
}
