package io.wecominbox.ingest;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The real WAR plus what an in-container test needs to post signed callbacks and wait for their effects. */
final class SignedCallbackDeployment {

    private SignedCallbackDeployment() {
    }

    static WebArchive of(Class<?> testClass) {
        return Deployments.application().addClasses(testClass, SignedCallbackDeployment.class, SignedCallbacks.class,
                SignedCallbacks.Wire.class, CallbackClient.class, SampleEvents.class, Poll.class, Deployments.class,
                StackEnv.class);
    }
}
