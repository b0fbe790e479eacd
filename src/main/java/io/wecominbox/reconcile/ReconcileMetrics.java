package io.wecominbox.reconcile;

import io.wecominbox.reconcile.ReconcileSteps.PageCounts;
import io.wecominbox.wecom.WeComCallOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The pull's metrics (labels are names only): {@code wecom_reconcile_runs_total{app,result}},
 * {@code wecom_reconcile_records_total{app,outcome=new|known|gone}},
 * {@code wecom_reconcile_api_calls_total{app,api,result}} (result = the outcome kind, e.g. RETRY on 45009).
 */
@ApplicationScoped
public class ReconcileMetrics {

    @Inject
    MetricRegistry registry;

    void finished(String app, String state) {
        registry.counter("wecom.reconcile.runs", new Tag("app", app), new Tag("result", state)).inc();
    }

    void records(String app, PageCounts counts) {
        records(app, "new", counts.found());
        records(app, "known", counts.known());
    }

    void gone(String app, int gone) {
        records(app, "gone", gone);
    }

    void call(String app, String api, WeComCallOutcome outcome) {
        registry.counter("wecom.reconcile.api.calls", new Tag("app", app), new Tag("api", api),
            new Tag("result", outcome.kind().name())).inc();
    }

    private void records(String app, String outcome, int n) {
        registry.counter("wecom.reconcile.records", new Tag("app", app), new Tag("outcome", outcome)).inc(n);
    }
}
