package io.wecominbox.testsupport;

import io.wecominbox.testhooks.FailAfterEffect;
import java.io.File;
import java.nio.file.Path;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Test deployments are the real WAR the build produced, plus the test hooks (the chaos switch, which the
 * production WAR does not contain) and whatever test classes a test adds.
 */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive application() {
        File war = StackEnv.buildDir().resolve("wecom-inbox.war").toFile();
        return ShrinkWrap.create(ZipImporter.class, "wecom-inbox.war").importFrom(war).as(WebArchive.class)
            .addPackage(FailAfterEffect.class.getPackage());
    }

    /**
     * The test deployment as a file, for the tests that run Liberty as a process (crash, end to end). Named
     * like the production WAR: the module name in the activation-spec ids (wecom-inbox/...) comes from it.
     */
    public static Path applicationFile() {
        Path file = StackEnv.buildDir().resolve("test-deployment/wecom-inbox.war");
        file.getParent().toFile().mkdirs();
        application().as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
