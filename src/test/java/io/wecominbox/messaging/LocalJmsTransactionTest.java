package io.wecominbox.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a pooled session is handed back with: nothing uncommitted, whatever the work did or failed to do. */
class LocalJmsTransactionTest {

    /** The calls the fake connection and session saw, in order. */
    private final List<String> calls = new ArrayList<>();
    private boolean failCommit;
    private boolean failRollback;

    @Test
    void aBorrowedSessionStartsFromACleanTransaction() throws Exception {
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory())) {
            tx.commit();
        }
        assertEquals(List.of("createSession", "rollback", "commit", "close"), calls);
    }

    @Test
    void workLeftUncommittedIsRolledBackWhenTheTransactionCloses() throws Exception {
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory())) {
            tx.session().createTextMessage("received or sent, never committed");
        }
        assertEquals(List.of("createSession", "rollback", "createTextMessage", "rollback", "close"), calls);
    }

    @Test
    void aCommittedTransactionClosesWithoutAnotherRoundTrip() throws Exception {
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory())) {
            tx.session().createTextMessage("sent");
            tx.commit();
        }
        assertEquals(List.of("createSession", "rollback", "createTextMessage", "commit", "close"), calls);
    }

    @Test
    void workAfterACommitIsRolledBackAgain() throws Exception {
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory())) {
            tx.session().createTextMessage("first");
            tx.commit();
            tx.session().createTextMessage("second, abandoned");
        }
        assertEquals(List.of("createSession", "rollback", "createTextMessage", "commit", "createTextMessage", "rollback", "close"),
            calls);
    }

    @Test
    void aFailedCommitIsRolledBackWhenTheTransactionCloses() throws Exception {
        failCommit = true;
        ConnectionFactory factory = factory();
        assertThrows(JMSException.class, () -> {
            try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory)) {
                tx.session().createTextMessage("the commit of this fails");
                tx.commit();
            }
        });
        assertEquals(List.of("createSession", "rollback", "createTextMessage", "commit", "rollback", "close"), calls);
    }

    @Test
    void aRollbackThatFailsStillClosesTheConnectionAndDoesNotHideTheWorksOwnFailure() throws Exception {
        ConnectionFactory factory = factory();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> {
            try (LocalJmsTransaction tx = LocalJmsTransaction.begin(factory)) {
                failRollback = true; // the broker connection is lost during the work
                tx.session().createTextMessage("work");
                throw new IllegalStateException("the work failed");
            }
        });
        assertEquals("the work failed", thrown.getMessage());
        assertEquals(List.of("createSession", "rollback", "createTextMessage", "rollback", "close"), calls);
    }

    @Test
    void aSessionThatCannotStartCleanIsGivenBackAtOnce() throws Exception {
        failRollback = true;
        ConnectionFactory factory = factory();
        assertThrows(JMSException.class, () -> LocalJmsTransaction.begin(factory));
        assertEquals(List.of("createSession", "rollback", "close"), calls);
    }

    private ConnectionFactory factory() {
        Session session = fake(Session.class, (name) -> {
            calls.add(name);
            if (name.equals("rollback") && failRollback) {
                throw new JMSException("connection lost");
            }
            if (name.equals("commit") && failCommit) {
                throw new JMSException("commit failed");
            }
            return null;
        });
        Connection connection = fake(Connection.class, (name) -> {
            calls.add(name);
            return name.equals("createSession") ? session : null;
        });
        return fake(ConnectionFactory.class, (name) -> connection);
    }

    private interface Answer {
        Object answer(String method) throws JMSException;
    }

    private static <T> T fake(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
            (proxy, method, args) -> method.getDeclaringClass() == Object.class ? method.invoke(answer, args)
                : answer.answer(method.getName())));
    }
}
