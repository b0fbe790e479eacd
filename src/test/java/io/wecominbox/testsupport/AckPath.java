package io.wecominbox.testsupport;

/** The readiness check a load balancer routes on, as it appears in /health/ready's JSON. */
public final class AckPath {

    public static final String UP = "\"name\":\"ack-path\",\"status\":\"UP\"";
    public static final String DOWN = "\"name\":\"ack-path\",\"status\":\"DOWN\"";

    private AckPath() {
    }
}
