package io.wecominbox.ops.probe;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.concurrent.atomic.AtomicLong;

/** Test-only bean: sends a probe (row + message) and then fails inside the same transaction. */
@ApplicationScoped
public class ProbeThenFail {

    @Inject
    private PipelineProbe probe;

    @Transactional
    public void sendThenFail(String label, AtomicLong sentProbeId) {
        sentProbeId.set(probe.send(label));
        throw new DeliberateFailure();
    }

    public static class DeliberateFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeliberateFailure() {
            super("deliberate failure after the row and the message were written");
        }
    }
}
