package io.wecominbox.devstack.bench;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The mix bench's markdown: per step what WeCom saw (answered within 5 s, ACK percentiles, re-sends), what the
 * customer saw (welcomes sent, expired, welcome latency; bot replies), what was left behind (each handler's
 * backlog when the arrivals stopped and its drain time) and what it cost (CPU ms per event per process); then
 * the closed loop against pgbench's single-row insert, and issue 21's targets.
 */
final class MixReport {

    // issue 21's targets on 2 cores
    static final double TARGET_RATE = 500;
    static final double TARGET_ACK_P99_MS = 50;
    static final double TARGET_WELCOME_P99_MS = 1000;
    static final double TARGET_CLOSED_RATIO = 0.1;

    private final MixBenchOptions options;
    private final List<String> cpuColumns;
    private final String heading;
    private final List<PhaseResult> pgbench = new ArrayList<>();
    private final List<MixStepResult> steps = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private List<String> appNames = List.of();
    private PhaseResult closed;

    MixReport(MixBenchOptions options, List<String> cpuColumns, double loadAtStart) {
        this(options, cpuColumns, "Run of " + OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS)
                + " (UTC); load average " + num2(loadAtStart) + " at start.");
    }

    /** {@code heading}: the first sentence (the run's time; fixed in tests). */
    MixReport(MixBenchOptions options, List<String> cpuColumns, String heading) {
        this.options = options;
        this.cpuColumns = cpuColumns;
        this.heading = heading;
    }

    void pgbench(PhaseResult result) {
        pgbench.add(result);
    }

    void step(MixStepResult step) {
        steps.add(step);
    }

    void closed(PhaseResult result) {
        this.closed = result;
    }

    /** The apps the callbacks went to (the options may leave them to the environment). */
    void apps(List<String> names) {
        this.appNames = List.copyOf(names);
    }

    void note(String note) {
        notes.add(note);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(heading).append(" Apps ").append(appNames.isEmpty() ? options.apps() : appNames)
                .append(" in turn; ").append(pct(options.addShare())).append(" adds with a WelcomeCode, the rest "
                        + "members' text messages (conversation, crm, bot); signed, encrypted, each unique. Open loop, ")
                .append(options.stepSeconds()).append(" s per step, ").append(options.pauseSeconds())
                .append(" s pause after each (drain watched). WeCom waits ").append(options.ackTimeout().toMillis())
                .append(" ms for the 200 and ").append(options.resend() ? "re-sends the same bytes at +5 s, +10 s, "
                        + "+84-90 s" : "does not re-send (--resend off)")
                .append("; the fake WeCom API answers in ").append(options.apiLatencyMillis()).append(" ± ")
                .append(options.apiJitterMillis()).append(" ms")
                .append(options.slowTailRate() > 0 ? ", " + pct(options.slowTailRate()) + " of calls at "
                        + options.slowTailMillis() + " ms" : "")
                .append(". Latency from each delivery's due time; CPU per event over the step and its pause.\n\n");
        if (!options.command().isBlank()) {
            md.append("```\n").append(options.command()).append("\n```\n\n");
        }
        if (!pgbench.isEmpty()) {
            md.append("**pgbench single-row insert** (same server, database and role as the app)\n\n"
                    + "| run | clients | TPS | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|\n");
            for (PhaseResult r : pgbench) {
                md.append("| ").append(r.name()).append(" | ").append(r.concurrency()).append(" | ")
                        .append(num(r.achievedPerSecond())).append(" | ").append(ms(r.latency().p50())).append(" | ")
                        .append(ms(r.latency().p99())).append(" |\n");
            }
            md.append('\n');
        }
        ackTable(md);
        welcomeTable(md);
        drainTable(md);
        cpuTable(md);
        closedLoop(md);
        notes.forEach(n -> md.append("- ").append(n).append('\n'));
        if (!notes.isEmpty()) {
            md.append('\n');
        }
        summary(md);
        return md.toString();
    }

    private void ackTable(StringBuilder md) {
        md.append("**What WeCom saw** (answered = the first attempt got 200 \"success\" within ")
                .append(options.ackTimeout().toSeconds()).append(" s; ACK percentiles over first attempts, an "
                        + "unanswered one ranking last)\n\n"
                        + "| offered/s | events | answered ≤ " + options.ackTimeout().toSeconds() + " s | ACK p50 ms |"
                        + " ACK p99 ms | ACK p99.9 ms | re-sends (answered) | acknowledged in the end | failed "
                        + "attempts |\n|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (MixStepResult s : steps) {
            MixStepResult.DeliverySummary d = s.deliveries();
            md.append("| ").append(num(s.offeredPerSecond())).append(" | ").append(d.events()).append(" | ")
                    .append(pct1(d.answeredShare())).append(" | ").append(ack(d.ack().p50())).append(" | ")
                    .append(ack(d.ack().p99())).append(" | ")
                    .append(d.ack().count() >= 1000 ? ack(d.ack().p999()) : "n/a").append(" | ")
                    .append(d.resends()).append(" (").append(d.resendsAnswered()).append(") | ")
                    .append(d.acknowledged()).append(" | ")
                    .append(d.failures().isEmpty() ? "0" : d.failures().entrySet().stream()
                            .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private void welcomeTable(StringBuilder md) {
        md.append("**What the customer saw** (welcome latency from the callback's due time to the API call that "
                + "sent it; expired = 20 s from CreateTime passed unused, \"late\" = of which the app called and got "
                + "41050; bot replies over the step and its pause)\n\n"
                + "| offered/s | adds | welcomes sent | expired (late) | pending | welcome p50 s | welcome p99 s |"
                + " bot replies (refused 45009) |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (MixStepResult s : steps) {
            WelcomeOutcome w = s.welcomes();
            md.append("| ").append(num(s.offeredPerSecond())).append(" | ").append(w.adds()).append(" | ")
                    .append(w.sent()).append(" | ").append(w.expired()).append(" (").append(w.answeredExpired())
                    .append(") | ").append(w.pending()).append(" | ").append(seconds(w.latency().p50())).append(" | ")
                    .append(seconds(w.latency().p99())).append(" | ").append(s.botReplies()).append(" (")
                    .append(s.botRefused()).append(") |\n");
        }
        md.append('\n');
    }

    private void drainTable(StringBuilder md) {
        Set<String> handlers = new TreeSet<>();
        steps.forEach(s -> handlers.addAll(s.drain().keySet()));
        if (handlers.isEmpty()) {
            md.append("Handler backlogs: not measured (no --broker-console).\n\n");
            return;
        }
        md.append("**Each handler's backlog** when the arrivals stopped → its drain time (until its queue first "
                + "stood empty, at most the ").append(options.pauseSeconds()).append(" s pause; else what was left)\n\n| offered/s |");
        handlers.forEach(h -> md.append(' ').append(h).append(" |"));
        md.append("\n|---:|").append("---:|".repeat(handlers.size())).append('\n');
        for (MixStepResult s : steps) {
            md.append("| ").append(num(s.offeredPerSecond())).append(" |");
            for (String h : handlers) {
                HandlerDrain.Result r = s.drain().get(h);
                md.append(' ').append(r == null ? "?" : drain(r)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void cpuTable(StringBuilder md) {
        md.append("**CPU per event**, ms of CPU per offered event over the step and its pause (\"driver\" is the "
                + "bench's JVM but the fake WeCom API's HTTP threads, shown apart; \"liberty JIT\" and \"artemis "
                + "JIT\" are those JVMs' JIT compiler threads, shown apart from them: warm-up that ends, not a cost "
                + "per event; \"machine\" all busy time, in % of one core)\n\n"
                + "| offered/s |");
        List<String> columns = cpuColumns.stream().filter(c -> !c.equals(CpuMeter.PGBENCH)).toList();
        columns.forEach(c -> md.append(' ').append(c).append(c.equals(CpuMeter.MACHINE) ? " %" : " ms").append(" |"));
        md.append("\n|---:|").append("---:|".repeat(columns.size())).append('\n');
        for (MixStepResult s : steps) {
            md.append("| ").append(num(s.offeredPerSecond())).append(" |");
            for (String c : columns) {
                Double v = c.equals(CpuMeter.MACHINE) ? s.cpuPercent().get(c) : s.cpuMillisPerEvent().get(c);
                md.append(' ').append(v == null ? "" : c.equals(CpuMeter.MACHINE) ? num(v) : ms(v)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void closedLoop(StringBuilder md) {
        if (closed == null) {
            return;
        }
        double single = pgbenchMean();
        md.append("**Closed loop, consumers running** (").append(closed.concurrency())
                .append(" senders, each posting the next callback of the mix when the last was answered)\n\n"
                        + "| senders | callbacks/s | p50 ms | p99 ms | p99.9 ms | errors | × pgbench single insert |\n"
                        + "|---:|---:|---:|---:|---:|---|---:|\n| ")
                .append(closed.concurrency()).append(" | ").append(num(closed.achievedPerSecond())).append(" | ")
                .append(ms(closed.latency().p50())).append(" | ").append(ms(closed.latency().p99())).append(" | ")
                .append(closed.latency().count() >= 1000 ? ms(closed.latency().p999()) : "n/a").append(" | ")
                .append(closed.errors().isEmpty() ? "0" : closed.errors().entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")))
                .append(" | ").append(Double.isNaN(single) ? "n/a" : num3(closed.achievedPerSecond() / single))
                .append(" |\n\n");
    }

    private void summary(StringBuilder md) {
        double single = pgbenchMean();
        md.append("**Summary** (issue 21's targets, 2 cores, the driver on the machine)\n\n");
        md.append("- pgbench single-row insert: ").append(Double.isNaN(single) ? "not run, so no ratios"
                : "**" + num(single) + " TPS** (mean of the runs above)").append('\n');
        MixStepResult at = steps.stream().filter(s -> s.offeredPerSecond() == TARGET_RATE).findFirst().orElse(null);
        if (at == null) {
            md.append("- no ").append(num(TARGET_RATE)).append("/s step, so the mix targets are not judged\n");
        } else {
            MixStepResult.DeliverySummary d = at.deliveries();
            boolean answered = d.events() > 0 && d.firstAnswered() == d.events();
            md.append("- at ").append(num(TARGET_RATE)).append("/s: every delivery answered within ")
                    .append(options.ackTimeout().toSeconds()).append(" s: **").append(answered ? "met" : "missed")
                    .append("** (").append(pct1(d.answeredShare())).append("); ACK p99 ≤ ")
                    .append(num(TARGET_ACK_P99_MS)).append(" ms: **")
                    .append(d.ack().p99() <= TARGET_ACK_P99_MS ? "met" : "missed").append("** (")
                    .append(ack(d.ack().p99())).append(" ms); 0 welcomes expired: **")
                    .append(at.welcomes().expired() == 0 && at.welcomes().pending() == 0 ? "met" : "missed")
                    .append("** (").append(at.welcomes().expired()).append("); welcome p99 ≤ ")
                    .append(num(TARGET_WELCOME_P99_MS / 1000)).append(" s: **")
                    .append(at.welcomes().latency().p99() <= TARGET_WELCOME_P99_MS ? "met" : "missed").append("** (")
                    .append(seconds(at.welcomes().latency().p99())).append(" s)\n");
        }
        if (closed != null) {
            md.append("- closed loop with the consumers running ≥ ").append(TARGET_CLOSED_RATIO)
                    .append(" × pgbench single insert: ");
            if (Double.isNaN(single)) {
                md.append("not judged (no pgbench)\n");
            } else {
                double ratio = closed.achievedPerSecond() / single;
                md.append("**").append(ratio >= TARGET_CLOSED_RATIO ? "met" : "missed").append("** (")
                        .append(num(closed.achievedPerSecond())).append("/s = ").append(num3(ratio))
                        .append(" ×)\n");
            }
        }
    }

    private double pgbenchMean() {
        return pgbench.stream().mapToDouble(PhaseResult::achievedPerSecond).average().orElse(Double.NaN);
    }

    private String ack(double millis) {
        return Double.isInfinite(millis) ? "> " + options.ackTimeout().toMillis() : ms(millis);
    }

    private static String drain(HandlerDrain.Result r) {
        String atEnd = r.atEnd() < 0 ? "?" : String.format(Locale.ROOT, "%,d", r.atEnd());
        return atEnd + " → " + (r.drained() ? num1(r.drainSeconds()) + " s"
                : String.format(Locale.ROOT, "%,d left", r.left()));
    }

    private static String unanswered(double millis) {
        return Double.isInfinite(millis) ? "(unanswered)" : ms(millis);
    }

    static String seconds(double millis) {
        return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, "%.2f", millis / 1000);
    }

    static String ms(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, value < 10 ? "%.2f" : value < 100 ? "%.1f" : "%.0f", value);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }

    private static String pct1(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String num(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String num1(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static String num2(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String num3(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** For tests and the log: one line per step. */
    static String line(MixStepResult s) {
        MixStepResult.DeliverySummary d = s.deliveries();
        return String.format(Locale.ROOT, "%.0f/s: answered %s, ACK p50 %s p99 %s ms; welcomes %d sent, %d expired,"
                        + " p99 %s s; backlog %s", s.offeredPerSecond(), pct1(d.answeredShare()), unanswered(d.ack().p50()),
                unanswered(d.ack().p99()), s.welcomes().sent(), s.welcomes().expired(), seconds(s.welcomes().latency().p99()),
                s.drain().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().atEnd())
                        .collect(Collectors.joining(" ")));
    }
}
