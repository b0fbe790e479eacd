package io.wecominbox.handler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether the pools cover the consumers (server.xml variables): each consumer session runs one transaction at
 * a time, holding one database connection and (handlers) one background JMS session however large its batch,
 * so the pools must hold every session at once plus what background work and the callbacks need; otherwise a
 * burst on the crm queue takes connections the welcome or the ACK path wait for.
 *
 * @param handlerSessions      maxSession of each handler's activation spec
 * @param otherSessions        sessions of other consumers (the probe)
 * @param backgroundConnections replays, cleanup, disposition writer
 * @param ingestConnections    callbacks that may hold a database connection at once
 * @param dbPool               jdbc/wecom's maxPoolSize
 * @param backgroundJmsPool    jms/cf/background's maxPoolSize
 */
public record PoolSizing(Map<String, Integer> handlerSessions, int otherSessions, int backgroundConnections,
                         int ingestConnections, int dbPool, int backgroundJmsPool) {

    /** What is short, one line each; empty when the pools cover everything. */
    public List<String> shortfalls() {
        int handlers = handlerSessions.values().stream().mapToInt(Integer::intValue).sum();
        int dbNeeded = handlers + otherSessions + backgroundConnections + ingestConnections;
        int jmsNeeded = handlers + backgroundConnections;
        List<String> shortfalls = new ArrayList<>();
        if (dbPool < dbNeeded) {
            shortfalls.add("db.pool.size " + dbPool + " < " + dbNeeded + " (handler sessions " + handlers
                + " + other consumers " + otherSessions + " + background.connections " + backgroundConnections
                + " + ingest.db.connections " + ingestConnections + ")");
        }
        if (backgroundJmsPool < jmsNeeded) {
            shortfalls.add("background.jms.pool.size " + backgroundJmsPool + " < " + jmsNeeded + " (handler sessions "
                + handlers + " + background.connections " + backgroundConnections + ")");
        }
        return shortfalls;
    }
}
