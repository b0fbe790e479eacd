package io.wecominbox;

/**
 * The JSON body of every error answer, the callback's and the admin API's: a stable code and a short human
 * reason. Beside the JAX-RS root because it is the API's, not one package's. JAX-RS resources return it as an
 * entity; servlets and filters, which have no JSON-B in their path, write {@link #toJson()}.
 */
public record ErrorBody(String error, String reason) {

    /** Our own failure (database or broker down, a timeout, a bug): 503, so that the caller retries. */
    public static final ErrorBody UNAVAILABLE = new ErrorBody("unavailable", "temporarily unavailable, retry later");

    /** The same JSON as JSON-B makes of the record. */
    public String toJson() {
        return JsonProviders.JSON.createObjectBuilder().add("error", error).add("reason", reason).build().toString();
    }
}
