package io.wecominbox.ops.diagnosis;

import io.wecominbox.callbacklog.CallbackLogStatistics;
import io.wecominbox.callbacklog.CallbackLogStatistics.Repeats;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/** Measures the retry span from callback_log (its repository reads the view callback_retry_span, V30). */
@ApplicationScoped
public class RetrySpanQuery {

    private static final int TIMEOUT_SECONDS = 10;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** {@code app} null: every app. */
    public MeasuredRetrySpan since(Instant since, String app) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Repeats r = CallbackLogStatistics.repeatsSince(c, since, app, TIMEOUT_SECONDS);
            return new MeasuredRetrySpan(r.deliveries(), r.newEvents(), r.repeatedEvents(), round3(r.p50SpanSeconds()),
                round3(r.p99SpanSeconds()), round3(r.maxSpanSeconds()));
        }
    }

    private static Double round3(Double seconds) {
        return seconds == null ? null : ImpliedHotWindow.round3(seconds);
    }
}
