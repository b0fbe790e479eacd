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

    /** The script's exit code, for a test that treats a deliberate refusal (say, code 3) apart from failure. */
    public static int exitCode(String script, String... args) {
        return execute(script, args);
    }

    public static void run(String script, String... args) {
        if (execute(script, args) != 0) {
            throw new IllegalStateException(script + " " + String.join(" ", args) + " failed");
        }
    }

    private static int execute(String script, String... args) {
        String[] command = new String[args.length + 2];
        command[0] = "bash";
        command[1] = StackEnv.stackScript(script).toString();
        System.arraycopy(args, 0, command, 2, args.length);
        ProcessBuilder builder = ChildProcess.sharingOutput(command);
        builder.environment().put("WECOM_BUILD_DIR", StackEnv.buildDir().toString());
        builder.environment().remove("STACK_FRESH"); // never the "empty journal" start of a test run, mid-test
        for (String name : new String[] {"DB_HOST", "DB_PORT"}) { // the server this run really uses (stack.env)
            String value = StackEnv.get(name, null);
            if (value != null) {
                builder.environment().put(name, value);
            }
        }
        try {
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(script + " " + String.join(" ", args) + " timed out");
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
