package io.wecominbox.event;

/**
 * The input is not well-formed XML, or uses a construct we refuse (DOCTYPE, entities, oversize).
 * The message is short and never carries the input: callers log it, and the input is attacker-controlled.
 */
public class MalformedXmlException extends Exception {

    private static final long serialVersionUID = 1L;

    public MalformedXmlException(String message) {
        super(message);
    }
}
