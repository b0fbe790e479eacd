package io.wecominbox.jdbc;

import java.sql.SQLException;
import javax.sql.XAConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.xa.PGXADataSource;

/**
 * PostgreSQL's XA data source whose branches report a server going away during commit or rollback as
 * XAER_RMFAIL ("try again later"), not XAER_RMERR. Loaded by Liberty from the JDBC driver's library
 * (server.xml, library postgresqlDriver), never from the application. Why: {@link RecoverablePgXaConnection}.
 */
public class RecoverablePgXaDataSource extends PGXADataSource {

    @Override
    public XAConnection getXAConnection(String user, String password) throws SQLException {
        return new RecoverablePgXaConnection((BaseConnection) super.getConnection(user, password));
    }

    @Override
    public String getDescription() {
        return "PostgreSQL XA data source that reports a server shutdown during commit as XAER_RMFAIL";
    }
}
