package io.wecominbox.ops.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.handler.HandlerRoute;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.HandlersInCode;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Readiness;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Black box: readiness probes the live broker for every handler's queue and divert, and names what is missing. */
@ExtendWith(ArquillianExtension.class)
class HandlerRoutesReadinessIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void readyReportsEveryHandlerRoutedOnTheStacksBroker() throws Exception {
        HttpResponse<String> ready = Http.get("/health/ready");
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"handler-routes\""), ready.body());
        String details = Readiness.details(); // each handler's route is an operator's detail, behind the login
        for (String handler : HandlersInCode.routes().stream().map(HandlerRoute::handler).toList()) {
            assertTrue(details.contains("\"" + handler + "\":\"routed\""), handler + " in " + details);
        }
    }

    @Test
    void aDivertRemovedFromTheBrokerMakesTheNodeUnreadyNamingIt() throws Exception {
        HandlerRoute bot = HandlersInCode.routes().stream().filter(r -> r.handler().equals("bot")).findFirst()
                .orElseThrow();
        // ready first, so that the removal is seen by a re-check of whole routes, not by this deployment's first probe
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> Http.get("/health/ready").statusCode() == 200),
                "ready before the divert is removed");
        BrokerConsole.destroyDivert(bot.divert());
        try {
            // whole routes are checked again every wecom.health.handler-routes.period-seconds (30 s by default)
            assertTrue(Poll.until(Duration.ofSeconds(90), () -> Http.get("/health/ready").statusCode() == 503),
                    "not ready without the bot's divert");
            String body = Http.get("/health/ready").body();
            assertTrue(body.contains("routes_missing"), "the public reason code: " + body);
            assertFalse(body.contains("wecom.handler.bot"), "no detail for anonymous callers: " + body);
            String details = Readiness.details();
            assertTrue(details.contains("no divert from wecom.events to wecom.handler.bot"), details);
            assertTrue(details.contains("\"crm\":\"routed\""), "the others stay routed: " + details);
        } finally {
            BrokerConsole.createDivert(bot.divert(), HandlerRoute.EVENTS_ADDRESS, bot.queue(), bot.filter());
        }
        // missing routes are checked every second, so their return shows at once
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> Http.get("/health/ready").statusCode() == 200),
                "ready again once the divert is back");
    }
}
