package io.wecominbox.devstack;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Prepares a PostgreSQL that already answers for the app when there is no {@code psql} on the machine:
 * checks that XA is possible (max_prepared_transactions > 0) and creates or updates our role and
 * database. The JDBC twin of postgres.sh's {@code enable_xa} check and {@code create_role_and_database};
 * unlike the script it cannot restart a server, so with XA off it prints the fix and fails.
 *
 * <p>Settings from the environment, as the scripts use them: DB_HOST, DB_PORT, DB_NAME, DB_USER,
 * DB_PASSWORD, PG_ADMIN_USER (default postgres), PG_ADMIN_PASSWORD.
 *
 * <p>Exit codes: 0 ready; 2 XA is off; 3 could not log in as admin nor as the app role (nothing checked).
 */
public final class DatabasePrepMain {

    static final int EXIT_XA_OFF = 2;
    static final int EXIT_NO_ACCESS = 3;

    private DatabasePrepMain() {
    }

    public static void main(String[] args) {
        String host = env("DB_HOST", "127.0.0.1");
        String port = env("DB_PORT", "5432");
        String database = env("DB_NAME", "wecom_inbox");
        String user = env("DB_USER", "wecom");
        String password = env("DB_PASSWORD", "");
        String adminUser = env("PG_ADMIN_USER", "postgres");
        String base = "jdbc:postgresql://" + host + ":" + port + "/";

        try (Connection admin = connect(base + "postgres", adminUser, env("PG_ADMIN_PASSWORD", ""))) {
            requireXa(admin, host + ":" + port);
            if ("true".equals(System.getenv("STACK_FRESH"))) {
                dropTestDatabase(admin, base, adminUser, database);
            }
            createRoleAndDatabase(admin, user, password, database);
            System.exit(0);
        } catch (XaOffException e) {
            System.err.println(e.getMessage());
            System.exit(EXIT_XA_OFF);
        } catch (SQLException adminFailed) {
            System.err.println("[db-prep] no admin access as " + adminUser + " (" + adminFailed.getMessage() + ")");
        }

        // Without admin rights we can still tell whether the app's own login works and XA is on.
        try (Connection app = connect(base + database, user, password)) {
            requireXa(app, host + ":" + port);
            System.err.println("[db-prep] role " + user + " and database " + database + " exist (checked by logging in)");
            System.exit(0);
        } catch (XaOffException e) {
            System.err.println(e.getMessage());
            System.exit(EXIT_XA_OFF);
        } catch (SQLException appFailed) {
            System.err.println("[db-prep] cannot log in as " + user + " to " + database + " either ("
                    + appFailed.getMessage() + ")");
            System.exit(EXIT_NO_ACCESS);
        }
    }

    /** XA needs max_prepared_transactions > 0; changing it needs a server restart, which we cannot do. */
    static void requireXa(Connection c, String where) throws SQLException, XaOffException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW max_prepared_transactions")) {
            rs.next();
            int mpt = Integer.parseInt(rs.getString(1));
            if (mpt <= 0) {
                throw new XaOffException("[db-prep] PostgreSQL at " + where + " has max_prepared_transactions = "
                        + mpt + "; XA needs it > 0. As a superuser run\n"
                        + "    ALTER SYSTEM SET max_prepared_transactions = 100;\n"
                        + "  then restart that PostgreSQL (a reload is not enough), or ask its administrator to.");
            }
            System.err.println("[db-prep] max_prepared_transactions = " + mpt);
        }
    }

    /** Creates the login role (or resets its password to ours) and the database it owns, if missing. */
    static void createRoleAndDatabase(Connection admin, String user, String password, String database)
            throws SQLException {
        String role = quoteIdent(user);
        try (Statement s = admin.createStatement()) {
            if (!exists(admin, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
                System.err.println("[db-prep] creating role " + user);
                s.execute("CREATE ROLE " + role + " LOGIN PASSWORD " + quoteLiteral(password));
            } else {
                s.execute("ALTER ROLE " + role + " LOGIN PASSWORD " + quoteLiteral(password));
            }
            if (!exists(admin, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
                System.err.println("[db-prep] creating database " + database);
                s.execute("CREATE DATABASE " + quoteIdent(database) + " OWNER " + role);
            }
        }
    }

    /**
     * A test run's database is disposable: roll back what a killed server left prepared in it (that must
     * happen inside the database), then drop it so the run starts empty.
     */
    static void dropTestDatabase(Connection admin, String base, String adminUser, String database) throws SQLException {
        if (!exists(admin, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
            return;
        }
        try (Connection inside = connect(base + database, adminUser, env("PG_ADMIN_PASSWORD", ""));
             Statement s = inside.createStatement();
             ResultSet gids = s.executeQuery("SELECT gid FROM pg_prepared_xacts WHERE database = current_database()")) {
            while (gids.next()) {
                try (Statement rollback = inside.createStatement()) {
                    rollback.execute("ROLLBACK PREPARED " + quoteLiteral(gids.getString(1)));
                }
            }
        }
        System.err.println("[db-prep] dropping the test database " + database + " (a fresh one for this run)");
        try (Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE " + quoteIdent(database) + " WITH (FORCE)");
        }
    }

    private static boolean exists(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(url, p);
    }

    // DDL takes no bind parameters: quote like PostgreSQL's quote_ident / quote_literal.
    static String quoteIdent(String s) {
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    static String quoteLiteral(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("NUL in a password");
        }
        return "'" + s.replace("'", "''") + "'";
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static final class XaOffException extends Exception {
        XaOffException(String message) {
            super(message);
        }
    }
}
