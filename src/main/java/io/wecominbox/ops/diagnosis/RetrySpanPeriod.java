package io.wecominbox.ops.diagnosis;

import io.wecominbox.ErrorBody;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/** The period a retry span is measured over: an ISO-8601 duration between an hour and 90 days. */
final class RetrySpanPeriod {

    static final Duration DEFAULT = Duration.ofDays(7);
    static final Duration MIN = Duration.ofHours(1);
    // every retried key of the period is looked up in the view: bound the work one request can ask for
    static final Duration MAX = Duration.ofDays(90);

    private RetrySpanPeriod() {
    }

    /** The period as the answer names it: as the caller wrote it (P7D stays P7D, not PT168H). */
    static String label(String value) {
        return value == null || value.isBlank() ? "P7D" : value.trim();
    }

    static Duration parse(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT;
        }
        Duration period;
        try {
            period = Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw badRequest("period must be an ISO-8601 duration such as PT6H or P7D");
        }
        if (period.compareTo(MIN) < 0 || period.compareTo(MAX) > 0) {
            throw badRequest("period must be between " + MIN + " and " + MAX.toDays() + " days (P" + MAX.toDays() + "D)");
        }
        return period;
    }

    private static BadRequestException badRequest(String reason) {
        return new BadRequestException(Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
            .entity(new ErrorBody("bad_period", reason)).build());
    }
}
