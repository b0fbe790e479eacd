package io.wecominbox.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class DatabaseFailureTest {

    @Test
    void namesWhatFailedAndTheSqlStateNeverTheDriversMessage() {
        SQLException cause = new SQLException("duplicate key value (app, user_id)=(customer, zhangsan)", "23505");

        IllegalStateException e = DatabaseFailure.of("reconcile_run insert", cause);

        assertEquals("reconcile_run insert failed (23505)", e.getMessage());
        assertSame(cause, e.getCause());
    }
}
