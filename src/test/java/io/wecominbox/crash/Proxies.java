package io.wecominbox.crash;

import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.TcpProxy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The TCP proxies the chaos campaign cuts: one in front of PostgreSQL, one in front of each broker of the pair.
 * The nodes are pointed at them through node 1's server.env (DB_PORT, BROKER_PORT, BROKER_BACKUP_PORT; node 2's
 * is made from it by nodes.sh create), before they start; {@link #close()} puts the file back. The tests
 * themselves keep talking to the services directly (target/stack/stack.env).
 */
final class Proxies implements AutoCloseable {

    private final TcpProxy database;
    private final List<TcpProxy> brokers;
    private final Path serverEnv;
    private final String originalEnv;

    private Proxies(TcpProxy database, List<TcpProxy> brokers, Path serverEnv, String originalEnv) {
        this.database = database;
        this.brokers = brokers;
        this.serverEnv = serverEnv;
        this.originalEnv = originalEnv;
    }

    static Proxies start() throws IOException {
        String dbHost = StackEnv.get("DB_HOST", "127.0.0.1");
        String brokerHost = StackEnv.get("BROKER_HOST", "127.0.0.1");
        TcpProxy db = TcpProxy.to("postgres", dbHost, Integer.parseInt(StackEnv.get("DB_PORT", "5432")));
        List<TcpProxy> brokers = new ArrayList<>();
        brokers.add(TcpProxy.to("broker", brokerHost, Integer.parseInt(StackEnv.get("BROKER_PORT", "61616"))));
        brokers.add(TcpProxy.to("broker-backup", brokerHost, BrokerConsole.backupPort()));
        Path env = new LibertyProcess().serverDir().resolve("server.env");
        String original = Files.readString(env);
        StringBuilder rewritten = new StringBuilder();
        for (String line : original.split("\n")) {
            if (line.startsWith("DB_HOST=") || line.startsWith("DB_PORT=") || line.startsWith("BROKER_HOST=")
                || line.startsWith("BROKER_PORT=") || line.startsWith("BROKER_BACKUP_PORT=")
                || line.startsWith("BROKER_BACKUP_HOST=")) {
                continue;
            }
            rewritten.append(line).append('\n');
        }
        rewritten.append("DB_HOST=127.0.0.1\nDB_PORT=").append(db.port()).append('\n')
            .append("BROKER_HOST=127.0.0.1\nBROKER_PORT=").append(brokers.get(0).port()).append('\n')
            .append("BROKER_BACKUP_PORT=").append(brokers.get(1).port()).append('\n');
        Files.writeString(env, rewritten);
        System.out.printf("chaos: the nodes reach PostgreSQL through 127.0.0.1:%d and the brokers through :%d/:%d%n",
            db.port(), brokers.get(0).port(), brokers.get(1).port());
        return new Proxies(db, brokers, env, original);
    }

    List<TcpProxy> database() {
        return List.of(database);
    }

    List<TcpProxy> brokers() {
        return brokers;
    }

    void restore() {
        database.restore();
        brokers.forEach(TcpProxy::restore);
    }

    @Override
    public void close() throws IOException {
        Files.writeString(serverEnv, originalEnv);
        database.close();
        brokers.forEach(TcpProxy::close);
    }
}
