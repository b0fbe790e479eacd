package io.wecominbox.devstack.bench;

import java.util.Map;
import java.util.SortedMap;

/**
 * One open-loop step of the mix bench, as the report shows it.
 *
 * @param offeredPerSecond the schedule's rate
 * @param deliveries       what WeCom saw of the step's callbacks (see {@link DeliveryTally})
 * @param welcomes         what became of the step's WelcomeCodes
 * @param botReplies       message/send calls answered 0 while the step and its pause ran
 * @param botRefused       message/send calls refused for WeCom's frequency limit (45009) in that time
 * @param drain            each handler's backlog when the arrivals stopped, and its drain time within the pause
 * @param cpuMillisPerEvent CPU ms per event of each process, over the step and its pause (the drain included)
 * @param cpuPercent       CPU % of one core of each process over the same time
 */
record MixStepResult(double offeredPerSecond, DeliverySummary deliveries, WelcomeOutcome welcomes, long botReplies,
                     long botRefused, SortedMap<String, HandlerDrain.Result> drain,
                     Map<String, Double> cpuMillisPerEvent, Map<String, Double> cpuPercent) {

    /** A snapshot of a {@link DeliveryTally} when the step's row is written. */
    record DeliverySummary(long events, long firstAnswered, LatencySamples.Summary ack, long resends,
                           long resendsAnswered, long acknowledged, long notSent, Map<String, Long> failures) {

        static DeliverySummary of(DeliveryTally t) {
            return new DeliverySummary(t.events.sum(), t.firstAnswered.sum(), t.firstAck.summary(), t.resends.sum(),
                    t.resendsAnswered.sum(), t.acknowledged.sum(), t.notSent.sum(), t.failures());
        }

        double answeredShare() {
            return events == 0 ? Double.NaN : (double) firstAnswered / events;
        }
    }

    /** CPU ms per event from the % of a core over {@code seconds} and the events of the step. */
    static Map<String, Double> perEvent(Map<String, Double> percent, double seconds, long events) {
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        percent.forEach((name, pct) -> out.put(name, events == 0 ? Double.NaN : pct / 100 * seconds * 1000 / events));
        return out;
    }
}
