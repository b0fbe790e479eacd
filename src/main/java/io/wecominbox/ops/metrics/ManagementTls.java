package io.wecominbox.ops.metrics;

import io.wecominbox.ops.host.LoopbackHost;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS towards the broker's console: by default the JVM's trust store; with wecom.broker.management.trust-certificate
 * only the certificates of that file (PEM or DER), for a broker with a self-signed or private-CA certificate. The
 * host name is still checked against the certificate (HttpClient's endpoint identification).
 */
public final class ManagementTls {

    private ManagementTls() {
    }

    /** A TLS context that trusts exactly the certificates in {@code file}. */
    public static SSLContext trusting(Path file) throws IOException {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(file)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (GeneralSecurityException e) {
            throw new IOException(file + " holds no readable X.509 certificate: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IOException(file + " holds no certificate");
        }
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                trusted.setCertificateEntry("broker-console-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, factory.getTrustManagers(), null);
            return tls;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot build a TLS context from " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * True when Basic credentials would cross a network in clear: plain HTTP to a host that is not this
     * machine's loopback.
     */
    public static boolean sendsPasswordInClear(URI url) {
        return "http".equalsIgnoreCase(url.getScheme()) && !LoopbackHost.is(url.getHost());
    }
}
