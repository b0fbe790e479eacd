package io.wecominbox.testsupport;

import io.wecominbox.handler.bot.BotHandler;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.WeComApiPaths;

/**
 * Where a test's text messages leave their effects, counted for one batch (a forced re-run) or for all when
 * the batch is null: CRM messages waiting on crm.outbound, SENT bot_reply_log rows, and message/send calls the
 * fake WeCom API recorded for the test's members.
 */
public record ReplayedEffects(String app, long msgPrefix, String memberPrefix, WeComSimulator wecom) {

    public long crmMessages(String batch) {
        String filter = "eventKey LIKE '" + app + ":msg:" + msgPrefix + "%'"
            + (batch == null ? "" : " AND dedupKey LIKE '%:" + batch + "'");
        return BrokerConsole.countMessages("crm.outbound", filter);
    }

    public long botReplies(String batch) {
        String sql = "SELECT count(*) FROM bot_reply_log WHERE app = ? AND msg_id LIKE ? AND status = 'SENT'";
        return batch == null ? Sql.count(sql, app, msgPrefix + "%")
            : Sql.count(sql + " AND batch_id = ?", app, msgPrefix + "%", batch);
    }

    /** A kill between WeCom's answer and our commit may repeat one call: the crash test reports, not asserts. */
    public long replyCalls(String batch) {
        return wecom.apiCalls().calls(WeComApiPaths.MESSAGE_SEND).stream()
            .filter(c -> c.touser().filter(u -> u.startsWith(memberPrefix)).isPresent())
            .filter(c -> batch == null || ("\"" + batch + "\"").equals(c.extraFields().get(BotHandler.BATCH_FIELD)))
            .count();
    }
}
