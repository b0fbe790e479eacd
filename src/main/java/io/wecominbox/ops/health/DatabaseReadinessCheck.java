package io.wecominbox.ops.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.Readiness;

/** Ready only if a pooled connection to PostgreSQL answers a validity check within 2 s. */
@Readiness
@ApplicationScoped
public class DatabaseReadinessCheck implements DetailedHealthCheck {

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthFinding finding() {
        return background.latest("database", this::probe);
    }

    HealthFinding probe() {
        var finding = HealthFinding.named("database");
        try (Connection connection = dataSource.getConnection()) {
            return finding.status(connection.isValid(2), "not_valid");
        } catch (Exception e) {
            return finding.detail("error", e.getClass().getSimpleName()).down("unreachable");
        }
    }
}
