package io.wecominbox.wecom;

import java.time.Instant;
import java.util.List;

/**
 * The WeCom API calls the handlers make. Safe inside an XA transaction (e.g. in a message-driven bean):
 * plain HTTP, bounded by the caller's deadline and by {@code wecom.api.call-budget-ms}, so it never holds
 * the transaction longer than that. Never throws for a WeCom or network problem: the outcome says what to do.
 *
 * <p><b>Maybe sent.</b> Whether a timed-out or cut-off call was performed by WeCom is unknowable (the
 * timeout may strike before or after WeCom acted); such an outcome is RETRY with
 * {@link WeComCallOutcome#effectUnknown()}. The caller must treat it as "maybe sent". The welcome handler
 * may simply retry: a welcome code is single-use, so the retry answers 41051 (ALREADY_DONE) if the first
 * try went through. A message/send retry can send twice unless the request asked for
 * {@code enable_duplicate_check}.
 */
public interface WeComApi {

    /** Request field that carries a re-run's batch id to WeCom (ignored there, recorded by the simulator). */
    String BATCH_ID_FIELD = "wecom_inbox_batch_id";

    /**
     * Sends the welcome message for an add_external_contact event (send_welcome_msg).
     *
     * @param app      the app name ({@code wecom.app.<name>.*})
     * @param deadline nothing starts or is waited for past it: the code's 20 s window less a margin
     * @return DONE; ALREADY_DONE (41051: a welcome already reached the customer, never send again); RETRY
     *         (-1, 41096, 45009, 45033, HTTP 5xx, timeout, connection error); GIVE_UP (41049, 41050, other)
     */
    default WeComCallOutcome sendWelcomeMessage(String app, String welcomeCode, WelcomeContent content,
                                                Instant deadline) {
        return sendWelcomeMessage(app, welcomeCode, content, deadline, null);
    }

    /**
     * The same, for a deliberate re-run: a non-null {@code batchId} goes along as the request field
     * {@value #BATCH_ID_FIELD} (WeCom ignores unknown fields; the simulator records it), so the outbound call
     * can be traced to the replay batch that made it.
     */
    WeComCallOutcome sendWelcomeMessage(String app, String welcomeCode, WelcomeContent content, Instant deadline,
                                        String batchId);

    /** Sends a text through message/send (bot replies) from the request's or else the app's agent. */
    WeComCallOutcome sendMessage(String app, MessageSendRequest request, Instant deadline);

    /**
     * externalcontact/get_follow_user_list: the members who have the customer-contact feature, in the reply's
     * {@code follow_user} array. A refused token (40014 / 42001) is retried once with a fresh one; 45009 /
     * 45033 (rate limits) come back as RETRY for the caller to back off.
     */
    WeComCallOutcome followUserList(String app, Instant deadline);

    /**
     * externalcontact/batch/get_by_user: the customers of up to 100 members, each with its {@code follow_info}
     * (userid, createtime = the FIRST add, state, ...), in pages: {@code cursor} "" or a previous
     * {@code next_cursor}, {@code limit} 1..100; the reply's {@code next_cursor} is empty on the last page.
     */
    WeComCallOutcome customersOfMembers(String app, List<String> userIds, String cursor, int limit, Instant deadline);
}
