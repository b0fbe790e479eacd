package io.wecominbox.ops.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class ReplayTaskTest {

    /** A replay_run row reduced to its state: RUNNING until the first failIfRunning. */
    private static final class Row implements ReplayTask.Failer {
        boolean running = true;
        final List<String> reasons = new ArrayList<>();

        @Override
        public boolean failIfRunning(long replayId, String reason) {
            reasons.add(reason);
            boolean was = running;
            running = false;
            return was;
        }
    }

    @Test
    void aBodyThatRecordedItsOwnEndLeavesTheRowAsItRecordedIt() {
        Row row = new Row();
        new ReplayTask(7, () -> row.running = false, row).run();
        assertEquals(1, row.reasons.size(), "only the safety check, which finds nothing running");
        assertTrue(!row.running);
    }

    @Test
    void aBodyThatEndsWithoutRecordingItsEndMakesTheRowFailedNotRunning() {
        Row row = new Row();
        new ReplayTask(7, () -> { }, row).run();
        assertTrue(!row.running);
        assertTrue(row.reasons.get(0).startsWith("ended without recording its outcome"), row.reasons.toString());
    }

    @Test
    void anErrorKillingTheTaskMakesTheRowFailedWithItsCauseAndStillPropagates() {
        Row row = new Row();
        ReplayTask task = new ReplayTask(7, () -> {
            throw new OutOfMemoryError("Java heap space");
        }, row);
        assertThrows(OutOfMemoryError.class, task::run);
        assertTrue(!row.running);
        assertEquals(1, row.reasons.size());
        assertTrue(row.reasons.get(0).startsWith("the replay task died (OutOfMemoryError: Java heap space)"),
            row.reasons.get(0));
        assertTrue(row.reasons.get(0).contains("request it again"));
    }

    @Test
    void aRuntimeFailureEscapingTheBodyIsRecordedWithTheInnermostCauseAndNotRethrown() {
        Row row = new Row();
        new ReplayTask(7, () -> {
            throw new IllegalStateException("replay_run update failed (08006)",
                new SQLException("connection refused"));
        }, row).run();
        assertTrue(!row.running);
        assertTrue(row.reasons.get(0).contains("(SQLException: connection refused)"), row.reasons.get(0));
    }

    @Test
    void whenEvenRecordingTheFailureFailsTheTaskEndsQuietlyForTheNextStartToMarkIt() {
        List<String> attempts = new ArrayList<>();
        List<LogRecord> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(ReplayTask.class.getName());
        log.addHandler(capture);
        try {
            ReplayTask task = new ReplayTask(7, () -> {
                throw new IllegalStateException("database down");
            }, (id, reason) -> {
                attempts.add(reason);
                throw new IllegalStateException("database still down");
            });
            task.run(); // nothing thrown into an unread Future
        } finally {
            log.removeHandler(capture);
        }
        assertEquals(1, attempts.size(), "it tried once to record the failure");
        assertTrue(attempts.get(0).startsWith("the replay task died (IllegalStateException: database down)"),
            attempts.get(0));
        assertTrue(logged.stream().anyMatch(r -> r.getLevel() == Level.SEVERE
                && r.getMessage().contains("could not be marked FAILED")
                && r.getMessage().contains("stays RUNNING until this server's next start")),
            "says why the row stays RUNNING and who will mark it");
    }

    @Test
    void aTaskAbortedBeforeItRanMakesTheRowFailedAsAborted() {
        Row row = new Row();
        ReplayTask task = new ReplayTask(7, () -> row.running = false, row);
        task.getManagedTaskListener().taskAborted(null, null, task, new RejectedExecutionException("shutting down"));
        assertTrue(!row.running);
        assertTrue(row.reasons.get(0).startsWith("aborted by the server before it finished"
            + " (RejectedExecutionException: shutting down)"), row.reasons.get(0));
    }

    @Test
    void aRefusedSubmissionSaysNothingWasPublishedAndToSendItAgain() {
        String reason = ReplayTask.notStartedReason(new RejectedExecutionException("queue full"));
        assertEquals("not started: the server refused the background task (RejectedExecutionException: queue full);"
            + " nothing was published; request it again", reason);
    }

    @Test
    void aLongCauseIsCutShort() {
        String cause = ReplayTask.rootCause(new IllegalStateException("x".repeat(1_000)));
        assertEquals(303, cause.length());
        assertTrue(cause.endsWith("..."));
    }

    @Test
    void theTaskIsNamedAfterItsReplayForTheServersThreadDiagnostics() {
        assertEquals("replay 7", new ReplayTask(7, () -> { }, new Row()).getExecutionProperties()
            .get(jakarta.enterprise.concurrent.ManagedTask.IDENTITY_NAME));
    }
}
