package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RolledBackMembersTest {

    @Test
    void noSelectorWhileNoBatchRolledBack() {
        assertNull(new RolledBackMembers().excludingSelector());
    }

    @Test
    void membersOfARolledBackBatchAreLeftOutOfTheNextBatches() {
        RolledBackMembers members = new RolledBackMembers();
        members.remember(List.of("ID:a-1", "ID:b-2"));
        String selector = members.excludingSelector();
        // a set: either order
        assertEquals(true, selector.equals("JMSMessageID NOT IN ('ID:a-1','ID:b-2')")
            || selector.equals("JMSMessageID NOT IN ('ID:b-2','ID:a-1')"), selector);
    }

    @Test
    void tooManyToListMeansNoBatchesAtAll() {
        RolledBackMembers members = new RolledBackMembers();
        members.remember(IntStream.range(0, RolledBackMembers.MAX_KEPT + 1).mapToObj(i -> "ID:" + i).toList());
        assertEquals("1 = 0", members.excludingSelector());
    }
}
