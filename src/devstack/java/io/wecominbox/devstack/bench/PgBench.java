package io.wecominbox.devstack.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * pgbench beside the ingest, on the same server, database and role: (a) one single-row insert per transaction,
 * (b) the same insert committed in two phases (PREPARE TRANSACTION / COMMIT PREPARED), which is what the XA
 * commit costs PostgreSQL. The table is shaped like callback_log (identity key, two secondary indexes, a
 * ~1.3 KB row) and exists only while the benchmark runs.
 */
final class PgBench implements AutoCloseable {

    static final String TABLE = "bench_pgbench_insert";
    static final String SINGLE_NAME = "pgbench single-row insert";
    static final String TWO_PHASE_NAME = "pgbench insert + 2PC";

    // The row is about callback_log's size: raw body + plaintext + query string come to 1-1.5 KB.
    private static final String INSERT = "INSERT INTO " + TABLE + " (event_key, payload) "
            + "VALUES ('pgbench:' || :client_id || ':' || :n, repeat(md5(:n::text), 40));";

    // Simple query mode in both, because pgbench substitutes :variables into the quoted gid only there.
    private static final String SINGLE = """
            \\set n :n + 1
            BEGIN;
            %s
            COMMIT;
            """.formatted(INSERT);

    // A gid unique per transaction: this run, the client and its own counter (-D n=0, kept per client).
    private static final String TWO_PHASE = """
            \\set n :n + 1
            BEGIN;
            %s
            PREPARE TRANSACTION 'pgbench-:run-:client_id-:n';
            COMMIT PREPARED 'pgbench-:run-:client_id-:n';
            """.formatted(INSERT);

    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern FAILED = Pattern.compile("number of failed transactions: ([0-9]+)");

    private final Path pgbench;
    private final Db db;
    private final Path work;

    record Db(String host, int port, String name, String user, String password) {
        String jdbcUrl() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + name;
        }
    }

    PgBench(Path pgbench, Db db) throws IOException, SQLException {
        this.pgbench = pgbench;
        this.db = db;
        this.work = Files.createTempDirectory("ingest-bench-pgbench");
        Files.writeString(work.resolve("single.sql"), SINGLE);
        Files.writeString(work.resolve("two-phase.sql"), TWO_PHASE);
        sql("DROP TABLE IF EXISTS " + TABLE,
            "CREATE TABLE " + TABLE + " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                + "received_at timestamptz NOT NULL DEFAULT now(), event_key text NOT NULL, payload text NOT NULL)",
            "CREATE INDEX ON " + TABLE + " (event_key, received_at)",
            "CREATE INDEX ON " + TABLE + " (received_at)");
    }

    PhaseResult single(int clients, long seconds, CpuMeter cpu) throws IOException, InterruptedException {
        return run(SINGLE_NAME, "single.sql", clients, seconds, cpu);
    }

    PhaseResult twoPhase(int clients, long seconds, CpuMeter cpu) throws IOException, InterruptedException {
        return run(TWO_PHASE_NAME, "two-phase.sql", clients, seconds, cpu);
    }

    private PhaseResult run(String name, String script, int clients, long seconds, CpuMeter cpu)
            throws IOException, InterruptedException {
        Path logs = Files.createDirectories(work.resolve(script.replace(".sql", "") + "-" + System.nanoTime()));
        List<String> command = List.of(pgbench.toString(), "-h", db.host(), "-p", Integer.toString(db.port()),
                "-U", db.user(), "-n", "-M", "simple", "-c", Integer.toString(clients),
                "-j", Integer.toString(Math.min(clients, Runtime.getRuntime().availableProcessors())),
                "-T", Long.toString(seconds), "-D", "n=0",
                "-D", "run=" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36),
                "-f", work.resolve(script).toString(), "-l", "--log-prefix", logs.resolve("tx").toString(),
                db.name());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSWORD", db.password());
        CpuMeter.Reading before = cpu.read();
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        CpuMeter.Reading after = cpu.read();
        Matcher tps = TPS.matcher(output);
        if (exit != 0 || !tps.find()) {
            throw new IOException("pgbench failed (exit " + exit + "):\n" + output);
        }
        Map<String, Long> errors = new TreeMap<>();
        Matcher failed = FAILED.matcher(output);
        if (failed.find() && Long.parseLong(failed.group(1)) > 0) {
            errors.put("failed transactions", Long.parseLong(failed.group(1)));
        }
        LatencySamples latency = transactionLatencies(logs);
        LatencySamples.Summary summary = latency.summary();
        return new PhaseResult(name, clients, Double.NaN, Double.parseDouble(tps.group(1)), summary.count(), errors,
                summary, cpu.usage(before, after), LoadAverage.now());
    }

    /** pgbench -l writes one line per transaction: client, transaction no, latency in µs, ... */
    private static LatencySamples transactionLatencies(Path logs) throws IOException {
        LatencySamples samples = new LatencySamples();
        try (Stream<Path> files = Files.list(logs)) {
            for (Path file : files.toList()) {
                try (Stream<String> lines = Files.lines(file)) {
                    lines.forEach(line -> {
                        String[] f = line.split(" ");
                        if (f.length >= 3) {
                            samples.add(Long.parseLong(f[2]) * 1000);
                        }
                    });
                }
            }
        }
        return samples;
    }

    private void sql(String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement statement = connection.createStatement()) {
            for (String s : statements) {
                statement.execute(s);
            }
        }
    }

    /** Drops the table and the transaction logs; any prepared leftovers of a killed pgbench go too. */
    @Override
    public void close() throws SQLException, IOException {
        try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement statement = connection.createStatement()) {
            List<String> leftovers = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = statement.executeQuery("SELECT gid FROM pg_prepared_xacts "
                    + "WHERE gid LIKE 'pgbench-%' AND database = current_database()")) {
                while (rs.next()) {
                    leftovers.add(rs.getString(1));
                }
            }
            for (String gid : leftovers) { // not allowed in a transaction block, hence one by one
                statement.execute("ROLLBACK PREPARED '" + gid.replace("'", "''") + "'");
            }
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        } finally {
            try (Stream<Path> paths = Files.walk(work)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
