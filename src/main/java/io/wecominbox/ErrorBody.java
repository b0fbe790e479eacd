package io.wecominbox;


/**
 * The JSON body of every error answer, the callback's and the admin API's: a stable code and a short human
 * reason. Beside the JAX-RS root because it is the API's, not one package's.
 */
public record ErrorBody(String error, String reason) {
}
