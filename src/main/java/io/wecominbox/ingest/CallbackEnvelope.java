package io.wecominbox.ingest;

import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.SecureXml;
import org.w3c.dom.Element;

/**
 * The outer XML WeCom POSTs: {@code <xml><ToUserName/><AgentID/><Encrypt/></xml>}. It must be parsed before
 * the signature can be checked, so only the hardened {@link SecureXml} parser ever sees it.
 */
public record CallbackEnvelope(String toUserName, String agentId, String encrypt) {

    public static CallbackEnvelope parse(String body) throws CallbackRejected {
        Element root;
        try {
            root = SecureXml.parse(body);
        } catch (MalformedXmlException e) {
            throw XmlRejections.of(e, isForbiddenConstruct(e) ? Rejection.FORBIDDEN_XML : Rejection.MALFORMED_XML);
        }
        String encrypt = SecureXml.childText(root, "Encrypt");
        if (encrypt == null || encrypt.isBlank()) {
            throw new CallbackRejected(Rejection.MISSING_ENCRYPT, "no Encrypt element in <" + root.getNodeName() + ">");
        }
        return new CallbackEnvelope(SecureXml.childText(root, "ToUserName"), SecureXml.childText(root, "AgentID"),
                encrypt);
    }

    // XXE attempts deserve their own counter: they are attacks, not broken clients.
    private static boolean isForbiddenConstruct(MalformedXmlException e) {
        String message = e.getMessage();
        return message != null && (message.contains("DOCTYPE") || message.contains("entity"));
    }
}
