package io.wecominbox.ops.host;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * Says once at start when the host will hold the callback answers back under load: PostgreSQL on this host and
 * the kernel grouping tasks by session (autogroup), where each backend weighs as much on the cores as all of
 * Liberty (docs/deploy.md, "Sharing the cores with PostgreSQL"). It changes nothing; the kernel is the admin's.
 */
@ApplicationScoped
public class SchedulingGroupsNote {

    private static final Logger LOG = Logger.getLogger(SchedulingGroupsNote.class.getName());
    private static final Path AUTOGROUP = Path.of("/proc/sys/kernel/sched_autogroup_enabled");

    @Inject
    Config config;

    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        note(readSetting(), config.getOptionalValue("db.host", String.class).orElse("")).ifPresent(LOG::warning);
    }

    /** The note for this kernel setting (the file's content; empty where the kernel has none) and database host. */
    static Optional<String> note(Optional<String> autogroup, String databaseHost) {
        if (autogroup.map(String::strip).filter("1"::equals).isEmpty() || !LoopbackHost.is(databaseHost)) {
            return Optional.empty();
        }
        return Optional.of("the kernel groups tasks by session (/proc/sys/kernel/sched_autogroup_enabled = 1) and "
                + "PostgreSQL is on this host: each of its backends gets as much CPU as all of this server, so under "
                + "load the callback answers wait for the cores. Turn the grouping off (sysctl "
                + "kernel.sched_autogroup_enabled=0); docs/deploy.md, Sharing the cores with PostgreSQL");
    }

    private static Optional<String> readSetting() {
        try {
            return Files.isReadable(AUTOGROUP) ? Optional.of(Files.readString(AUTOGROUP)) : Optional.empty();
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // nothing to say about a setting we cannot read
        }
    }
}
