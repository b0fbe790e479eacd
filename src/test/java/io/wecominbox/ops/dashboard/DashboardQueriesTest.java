package io.wecominbox.ops.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DashboardQueriesTest {

    @Test
    void aLongWelcomeCodeIsShownAsHeadAndTail() {
        assertEquals("it-3f2…come", DashboardQueries.shortCode("it-3f2a9c81d0e44b7a9b8c7d6e5f4a3b2cwelcome"));
    }

    @Test
    void aShortCodeIsShownWhole() {
        assertEquals("CODE12345678", DashboardQueries.shortCode("CODE12345678"));
    }
}
