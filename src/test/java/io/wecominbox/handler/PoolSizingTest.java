package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolSizingTest {

    private static final Map<String, Integer> SESSIONS = Map.of("welcome", 4, "crm", 2, "conversation", 2,
        "contact", 2, "bot", 2);

    @Test
    void theShippedDefaultsCoverEverySession() {
        assertEquals(List.of(), new PoolSizing(SESSIONS, 2, 4, 12, 30, 16).shortfalls());
    }

    @Test
    void moreWelcomeSessionsWithoutALargerPoolAreAShortfallNamingTheSum() {
        Map<String, Integer> more = new java.util.HashMap<>(SESSIONS);
        more.put("welcome", 10);
        List<String> shortfalls = new PoolSizing(more, 2, 4, 12, 30, 16).shortfalls();
        assertEquals(2, shortfalls.size(), shortfalls.toString());
        assertTrue(shortfalls.get(0).startsWith("db.pool.size 30 < 36"), shortfalls.get(0));
        assertTrue(shortfalls.get(1).startsWith("background.jms.pool.size 16 < 22"), shortfalls.get(1));
    }
}
