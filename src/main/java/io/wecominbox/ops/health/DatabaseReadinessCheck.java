package io.wecominbox.ops.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only if a pooled connection to PostgreSQL answers a validity check within 2 s. */
@Readiness
@ApplicationScoped
public class DatabaseReadinessCheck implements HealthCheck {

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthCheckResponse call() {
        return background.latest("database", this::probe);
    }

    HealthCheckResponse probe() {
        var response = HealthCheckResponse.named("database");
        try (Connection connection = dataSource.getConnection()) {
            return response.status(connection.isValid(2)).build();
        } catch (Exception e) {
            return response.down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
