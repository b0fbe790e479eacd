package io.wecominbox.crash;

import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Keeps a few clients sending probes until closed; remembers which ones the server acknowledged. */
final class ProbeLoad implements AutoCloseable {

    private final ExecutorService clients;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Set<Long> acknowledged;
    private final AtomicInteger attempts = new AtomicInteger();

    ProbeLoad(int clientCount, String label, Set<Long> acknowledged) {
        this.acknowledged = acknowledged;
        this.clients = Executors.newFixedThreadPool(clientCount);
        for (int i = 0; i < clientCount; i++) {
            clients.submit(() -> sendUntilStopped(label));
        }
    }

    static Set<Long> newAcknowledgedSet() {
        return ConcurrentHashMap.newKeySet();
    }

    int attempts() {
        return attempts.get();
    }

    private void sendUntilStopped(String label) {
        while (running.get()) {
            attempts.incrementAndGet();
            HttpResponse<String> answer = Http.postAsAdmin("/api/ops/probes?label=" + label);
            if (answer != null && answer.statusCode() == 201) {
                acknowledged.add(Long.parseLong(answer.body().replaceAll("\\D+", "")));
            } else if (answer == null) {
                // no answer (a killed server, or a first request slower than the client's 30 s on a loaded
                // machine, which used to end every client before node 1 had acknowledged one): try again
                Poll.sleep(200);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        clients.shutdown();
        clients.awaitTermination(60, TimeUnit.SECONDS);
    }
}
