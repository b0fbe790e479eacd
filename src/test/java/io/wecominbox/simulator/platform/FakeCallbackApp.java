package io.wecominbox.simulator.platform;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Executors;

/** A tiny stand-in for the app's callback endpoint that answers from a script and records each request. */
final class FakeCallbackApp implements AutoCloseable {

    /** How the app answers one request. */
    record Answer(int status, long delayMillis) {
        static Answer ok() { return new Answer(200, 0); }
        static Answer status(int s) { return new Answer(s, 0); }
        static Answer slow(long millis) { return new Answer(200, millis); }
    }

    record Received(String path, String rawQuery, String body, long nanoTime) { }

    private final HttpServer server;
    private final LinkedBlockingDeque<Answer> script = new LinkedBlockingDeque<>();
    private volatile Answer otherwise = Answer.ok();
    final List<Received> received = new CopyOnWriteArrayList<>();

    FakeCallbackApp() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), body, System.nanoTime()));
            Answer answer = script.pollFirst();
            if (answer == null) {
                answer = otherwise;
            }
            try {
                Thread.sleep(answer.delayMillis());
                byte[] out = "success".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(answer.status(), out.length);
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            } catch (InterruptedException | IOException e) {
                exchange.close();
            }
        });
        server.start();
    }

    FakeCallbackApp then(Answer... answers) {
        script.addAll(List.of(answers));
        return this;
    }

    FakeCallbackApp otherwise(Answer answer) {
        this.otherwise = answer;
        return this;
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/wecom/callback");
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
