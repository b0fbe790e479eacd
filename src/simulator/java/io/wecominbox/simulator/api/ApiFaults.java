package io.wecominbox.simulator.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Which fault, if any, hits the next call of a path. Counted rules ("the next N calls") are used up first,
 * in the order added; then rate rules roll the dice. Path {@code *} matches every API path.
 */
public final class ApiFaults {

    public static final String ANY_PATH = "*";

    /** One rule; exactly one of remaining (>0) and rate (>0) is in use. */
    public record Rule(String path, ApiFault fault, int remaining, double rate) {

        public static Rule nextCalls(String path, ApiFault fault, int calls) {
            if (calls <= 0) throw new IllegalArgumentException("calls must be > 0");
            return new Rule(path, fault, calls, 0);
        }

        public static Rule rate(String path, ApiFault fault, double rate) {
            if (rate < 0 || rate > 1) throw new IllegalArgumentException("rate must be within [0,1], was " + rate);
            return new Rule(path, fault, 0, rate);
        }

        boolean matches(String callPath) {
            return path.equals(ANY_PATH) || path.equals(callPath);
        }
    }

    private final Random random;
    private final List<Rule> rules = new ArrayList<>();

    public ApiFaults(Random random) {
        this.random = random;
    }

    public synchronized void add(Rule rule) {
        rules.add(rule);
    }

    public synchronized void clear() {
        rules.clear();
    }

    public synchronized List<Rule> rules() {
        return List.copyOf(rules);
    }

    synchronized Optional<ApiFault> next(String path) {
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            if (rule.remaining() > 0 && rule.matches(path)) {
                if (rule.remaining() == 1) {
                    rules.remove(i);
                } else {
                    rules.set(i, new Rule(rule.path(), rule.fault(), rule.remaining() - 1, 0));
                }
                return Optional.of(rule.fault());
            }
        }
        for (Rule rule : rules) {
            if (rule.rate() > 0 && rule.matches(path) && random.nextDouble() < rule.rate()) {
                return Optional.of(rule.fault());
            }
        }
        return Optional.empty();
    }
}
