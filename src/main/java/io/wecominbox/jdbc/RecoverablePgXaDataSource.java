package io.wecominbox.jdbc;

import java.sql.SQLException;
import javax.sql.XAConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.xa.PGXADataSource;

/**
 * PostgreSQL's XA data source whose branches report a commit or rollback that left the branch prepared (the
 * server went away, the prepared transaction was busy, ...) as XAER_RMFAIL ("try again later"), not
 * XAER_RMERR. Loaded by Liberty from the JDBC driver's library (server.xml, library postgresqlDriver), never
 * from the application. Why: {@link RecoverablePgXaConnection}.
 */
public class RecoverablePgXaDataSource extends PGXADataSource {

    @Override
    public XAConnection getXAConnection(String user, String password) throws SQLException {
        return new RecoverablePgXaConnection((BaseConnection) super.getConnection(user, password));
    }

    @Override
    public String getDescription() {
        return "PostgreSQL XA data source: a commit or rollback that leaves the branch prepared is XAER_RMFAIL";
    }
}
