package io.wecominbox.retention;

/** The tables the retention job looks after, by their names in the database. */
final class RetainedTable {

    static final String CALLBACK_LOG = "callback_log";
    static final String CONVERSATION_MESSAGE = "conversation_message";
    static final String BOT_REPLY_LOG = "bot_reply_log";
    static final String CALLBACK_REJECTION = "callback_rejection";

    private RetainedTable() {
    }
}
