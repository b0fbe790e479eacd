package io.wecominbox.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A loopback TCP forwarder that a test puts between the server and one of its dependencies (PostgreSQL, a
 * broker) to cut the network to it: {@link #cut()} drops every forwarded connection and makes new ones close at
 * once (the peer sees its connection end, as when a link or a firewall resets it), {@link #restore()} forwards
 * again. Listens on 127.0.0.1 only, on an ephemeral port ({@link #port()}); a thread per direction per
 * connection, which is plenty for a server's pools.
 */
public final class TcpProxy implements AutoCloseable {

    private final String name;
    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean cut = new AtomicBoolean();
    private volatile boolean closed;

    private TcpProxy(String name, InetSocketAddress target) throws IOException {
        this.name = name;
        this.target = target;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + name);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Forwards 127.0.0.1:{@link #port()} to {@code host:port}. */
    public static TcpProxy to(String name, String host, int port) throws IOException {
        return new TcpProxy(name, new InetSocketAddress(host, port));
    }

    public int port() {
        return listener.getLocalPort();
    }

    public String name() {
        return name;
    }

    /** Drops every connection now and refuses to forward until {@link #restore()}. */
    public void cut() {
        cut.set(true);
        open.forEach(TcpProxy::closeQuietly);
    }

    public void restore() {
        cut.set(false);
    }

    public boolean isCut() {
        return cut.get();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        open.forEach(TcpProxy::closeQuietly);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            if (cut.get()) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 2000);
            } catch (IOException e) {
                closeQuietly(client); // the dependency itself is down: the peer sees the same as without us
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            pump(client, upstream, "up");
            pump(upstream, client, "down");
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0 && !cut.get()) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ended) {
                // either side closed, or the cut closed both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-" + name + "-" + direction);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
