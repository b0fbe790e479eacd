/**
 * The WeCom API client: {@link io.wecominbox.wecom.WeComApi} (send_welcome_msg, message/send) with a per-app
 * access-token cache and typed outcomes ({@link io.wecominbox.wecom.WeComCallOutcome}). Configured by
 * {@code wecom.api.*} ({@link io.wecominbox.wecom.WeComApiSettings}) and {@code wecom.app.<name>.corp-id|secret|agent-id}.
 * No token or secret ever reaches a log line, an outcome or an exception message.
 */
package io.wecominbox.wecom;
