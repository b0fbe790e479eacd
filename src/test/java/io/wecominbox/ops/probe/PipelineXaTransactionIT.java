package io.wecominbox.ops.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs inside Liberty: one JTA transaction writes a PostgreSQL row and sends a JMS message through the
 * Artemis resource adapter; the message-driven bean consumes it in its own XA transaction.
 */
@ExtendWith(ArquillianExtension.class)
class PipelineXaTransactionIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.application()
                .addClasses(PipelineXaTransactionIT.class, ProbeThenFail.class, ProbeThenFail.DeliberateFailure.class,
                        Poll.class, Deployments.class, StackEnv.class);
    }

    @Inject
    private PipelineProbe probe;

    @Inject
    private ProbeThenFail probeThenFail;

    // Arquillian's enricher, not the container, fills test fields: a bare @Resource resolves to nothing.
    @Resource(lookup = "java:comp/UserTransaction")
    private UserTransaction transaction;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Test
    void committedTransactionStoresTheRowAndTheConsumerReceivesTheMessageOnce() throws Exception {
        transaction.begin();
        long probeId = probe.send("it-commit");
        transaction.commit();

        assertEquals(1, count("SELECT count(*) FROM pipeline_probe WHERE probe_id = ?", probeId));
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> receipts(probeId) >= 1),
                "the message-driven bean should receive the committed message");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(1), () -> receipts(probeId) == 1), "consumed exactly once");
    }

    @Test
    void failureAfterBothWritesLeavesNeitherTheRowNorTheMessage() throws Exception {
        String label = "it-rollback-" + UUID.randomUUID();
        AtomicLong rolledBack = new AtomicLong(-1);

        assertThrows(ProbeThenFail.DeliberateFailure.class, () -> probeThenFail.sendThenFail(label, rolledBack));
        assertTrue(rolledBack.get() > 0, "the probe was written before the failure");

        // A probe committed afterwards is consumed; had the rolled-back message been sent, it would have
        // been consumed around the same time and left a receipt.
        transaction.begin();
        long marker = probe.send("it-marker");
        transaction.commit();
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> receipts(marker) == 1));

        assertEquals(0, count("SELECT count(*) FROM pipeline_probe WHERE label = ?", label), "no row");
        assertTrue(Poll.holdsFor(Duration.ofMillis(1500), () -> receipts(rolledBack.get()) == 0), "no message");
    }

    private long receipts(long probeId) {
        return count("SELECT count(*) FROM pipeline_probe_receipt WHERE probe_id = ?", probeId);
    }

    private long count(String sql, Object parameter) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
