package io.wecominbox.ra;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import java.util.Set;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;
import org.apache.activemq.artemis.ra.ActiveMQResourceAdapter;
import org.apache.activemq.artemis.service.extensions.xa.recovery.ActiveMQXAResourceWrapper;
import org.apache.activemq.artemis.service.extensions.xa.recovery.XARecoveryConfig;

/**
 * The Artemis resource adapter, made to recover the XA branches of message-driven beans after a crash.
 *
 * <p>At restart Liberty asks {@link #getXAResources} for exactly one XAResource per activation spec in its
 * partner log. The stock adapter answers null (auto-recovery on) or misses the freshly built spec, so the
 * in-doubt branches stay prepared forever and keep their PostgreSQL row locks. Any XAResource on the same
 * broker can recover them (the broker answers {@code recover()} with every prepared Xid in its journal),
 * so we hand out one shared, self-reconnecting resource built from the adapter's own recovery settings.
 */
public class RecoverableArtemisResourceAdapter extends ActiveMQResourceAdapter {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(RecoverableArtemisResourceAdapter.class.getName());

    private transient ActiveMQXAResourceWrapper recoveryResource;

    @Override
    public synchronized XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        if (recoveryResource == null) {
            Set<XARecoveryConfig> configs = getRecoveryManager().getResources();
            if (configs.isEmpty()) {
                // not started yet: null tells Liberty "not available, ask again later"
                return null;
            }
            recoveryResource = new ActiveMQXAResourceWrapper(configs.toArray(new XARecoveryConfig[0]));
            LOG.info("Artemis XA recovery resource ready for message-driven bean branches");
        }
        return new XAResource[] {recoveryResource};
    }

    @Override
    public void stop() {
        synchronized (this) {
            // Liberty never closes what getXAResources handed out, so the adapter does
            if (recoveryResource != null) {
                recoveryResource.close();
                recoveryResource = null;
            }
        }
        super.stop();
    }
}
