package io.wecominbox.ops;

import io.wecominbox.ErrorBody;
import io.wecominbox.Failures;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Anything that escapes a resource and is not a deliberate HTTP answer is our failure (database or
 * broker down, a timeout, a bug): answer 503 so WeCom retries, with a short reason and no stack trace.
 * Client mistakes are answered by the resources themselves with 4xx.
 */
@Provider
public class UnavailableExceptionMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(UnavailableExceptionMapper.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        if (failure instanceof WebApplicationException web) {
            return web.getResponse();
        }
        LOG.log(Level.WARNING, "request failed, answering 503: {0}", Failures.rootCause(failure));
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .type(MediaType.APPLICATION_JSON)
                .entity(ErrorBody.UNAVAILABLE)
                .build();
    }
}
