package io.wecominbox.simulator.config;

import java.util.Map;
import java.util.Optional;

/**
 * Looks a property name up in the environment by the MicroProfile Config rule, so one variable such as
 * {@code WECOM_APP_CUSTOMER_TOKEN} overrides the simulator and the app alike: the exact name first, then
 * every non-alphanumeric character replaced by {@code _}, then that upper-cased.
 */
public final class EnvironmentOverrides {

    private final Map<String, String> env;

    public EnvironmentOverrides(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    public static EnvironmentOverrides ofSystem() {
        return new EnvironmentOverrides(System.getenv());
    }

    public Optional<String> lookup(String propertyName) {
        String sanitized = sanitize(propertyName);
        for (String candidate : new String[] {propertyName, sanitized, sanitized.toUpperCase(java.util.Locale.ROOT)}) {
            String value = env.get(candidate);
            if (value != null) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** {@code wecom.app.customer.corp-id} becomes {@code wecom_app_customer_corp_id}. */
    public static String sanitize(String propertyName) {
        StringBuilder out = new StringBuilder(propertyName.length());
        for (char c : propertyName.toCharArray()) {
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            out.append(alnum ? c : '_');
        }
        return out.toString();
    }

    public static String environmentName(String propertyName) {
        return sanitize(propertyName).toUpperCase(java.util.Locale.ROOT);
    }
}
