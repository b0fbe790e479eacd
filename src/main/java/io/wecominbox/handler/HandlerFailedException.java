package io.wecominbox.handler;

/** A handler threw a checked exception: rethrown unchecked so the container rolls the delivery back. */
public class HandlerFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    HandlerFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
