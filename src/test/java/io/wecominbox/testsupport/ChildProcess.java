package io.wecominbox.testsupport;

import java.io.File;

/**
 * Child processes of a test JVM share its output but never its standard input: in a Failsafe fork that
 * input is the plugin's command channel, and a child that reads it (a shell, a server script, a daemon
 * that keeps the descriptor) corrupts the channel and fails the whole run ("std/in stream corrupted").
 */
public final class ChildProcess {

    private static final File NO_INPUT = new File("/dev/null");

    private ChildProcess() {
    }

    /** The command with the test's stdout and stderr, and /dev/null as its stdin. */
    public static ProcessBuilder sharingOutput(java.util.List<String> command) {
        return new ProcessBuilder(command).inheritIO().redirectInput(NO_INPUT);
    }

    public static ProcessBuilder sharingOutput(String... command) {
        return sharingOutput(java.util.List.of(command));
    }
}
