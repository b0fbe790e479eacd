package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The management client over https: trusts the configured certificate, and nothing else. */
class ManagementTlsTest {

    private static final String ANSWER = "{\"status\":200,\"value\":{}}";

    @TempDir
    static Path dir;

    private static HttpsServer console;
    private static Path certificate;

    /** A throwaway key made for this run (never a file of the repository), served by a fake console. */
    @BeforeAll
    static void startConsole() throws Exception {
        String storePassword = UUID.randomUUID().toString();
        Path keystore = dir.resolve("console.p12");
        certificate = dir.resolve("console.pem");
        keytool("-genkeypair", "-alias", "console", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", storePassword, "-keypass", storePassword);
        keytool("-exportcert", "-rfc", "-alias", "console", "-keystore", keystore.toString(), "-storepass", storePassword,
                "-file", certificate.toString());

        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, storePassword.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, storePassword.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keyManagers.getKeyManagers(), null, null);
        console = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        console.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        console.createContext("/console/jolokia/", exchange -> {
            byte[] body = ANSWER.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        console.start();
    }

    @AfterAll
    static void stopConsole() {
        if (console != null) {
            console.stop(0);
        }
    }

    private static URI url() {
        return URI.create("https://127.0.0.1:" + console.getAddress().getPort() + "/console/jolokia");
    }

    @Test
    void readsOverTlsTrustingTheConfiguredCertificate() throws Exception {
        JolokiaClient client = new JolokiaClient(url(), "wecom-monitor", "pw", ManagementTls.trusting(certificate));
        assertEquals(ANSWER, client.read("org.apache.activemq.artemis:broker=*", List.of("Version")));
    }

    @Test
    void aCertificateNobodyConfiguredIsRefused() {
        JolokiaClient client = new JolokiaClient(url(), "wecom-monitor", "pw");
        assertThrows(SSLHandshakeException.class, () -> client.read("org.apache.activemq.artemis:broker=*", List.of("Version")));
    }

    @Test
    void aFileWithoutACertificateIsAnErrorNamingIt() throws IOException {
        Path garbage = Files.writeString(dir.resolve("not-a-cert.pem"), "-----BEGIN CERTIFICATE-----\nnope\n");
        IOException e = assertThrows(IOException.class, () -> ManagementTls.trusting(garbage));
        assertTrue(e.getMessage().contains("not-a-cert.pem"), e.getMessage());
    }

    @Test
    void plainHttpSendsThePasswordInClearUnlessItStaysOnThisMachine() {
        assertTrue(ManagementTls.sendsPasswordInClear(URI.create("http://broker.example.com:8161/console/jolokia")));
        assertFalse(ManagementTls.sendsPasswordInClear(URI.create("http://127.0.0.1:8161/console/jolokia")));
        assertFalse(ManagementTls.sendsPasswordInClear(URI.create("http://localhost:8161/console/jolokia")));
        assertFalse(ManagementTls.sendsPasswordInClear(URI.create("https://broker.example.com:8161/console/jolokia")));
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        // beside the java binary running this test: the JDK's keytool, whatever is on the PATH
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        command.add(java.resolveSibling("keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished");
        assertEquals(0, p.exitValue(), "keytool " + args[0] + ": " + output);
    }
}
