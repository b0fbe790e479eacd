package io.wecominbox.ingest;

import io.wecominbox.callbacklog.IncomingDelivery;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** The product's {@link CallbackLogCommit}: commit. */
@ApplicationScoped
public class PlainCallbackLogCommit implements CallbackLogCommit {

    @Override
    public void commit(Connection c, List<IncomingDelivery> deliveries) throws SQLException {
        c.commit();
    }
}
