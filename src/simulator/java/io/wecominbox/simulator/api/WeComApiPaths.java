package io.wecominbox.simulator.api;

/** The WeCom API paths the simulator plays. */
public final class WeComApiPaths {

    public static final String GET_TOKEN = "/cgi-bin/gettoken";
    public static final String SEND_WELCOME_MSG = "/cgi-bin/externalcontact/send_welcome_msg";
    public static final String MESSAGE_SEND = "/cgi-bin/message/send";
    public static final String GET_FOLLOW_USER_LIST = "/cgi-bin/externalcontact/get_follow_user_list";
    public static final String BATCH_GET_BY_USER = "/cgi-bin/externalcontact/batch/get_by_user";

    private WeComApiPaths() {
    }
}
