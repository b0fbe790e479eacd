package io.wecominbox.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

/** Runs the dev-stack scripts (src/stack) from a test, e.g. to stop and start the broker. */
public final class StackScripts {

    private StackScripts() {
    }

    /** True when the broker is one the stack started (so a test may stop it), not the user's own. */
    public static boolean stackOwnsBroker() {
        return Files.exists(StackEnv.buildDir().resolve("stack/pids/artemis.pid"));
    }

    /** True when Redis is a private one the stack started for this run (so a test may stop it). */
    public static boolean stackOwnsRedis() {
        return "true".equals(StackEnv.get("REDIS_OWNED", "false"));
    }

    public static void run(String script, String... args) {
        String[] command = new String[args.length + 2];
        command[0] = "bash";
        command[1] = StackEnv.stackScript(script).toString();
        System.arraycopy(args, 0, command, 2, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("WECOM_BUILD_DIR", StackEnv.buildDir().toString());
        try {
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(script + " " + String.join(" ", args) + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
