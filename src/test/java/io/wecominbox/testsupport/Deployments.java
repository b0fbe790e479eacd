package io.wecominbox.testsupport;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Test deployments are the real WAR the build produced, plus whatever test classes a test adds. */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive application() {
        File war = StackEnv.buildDir().resolve("wecom-inbox.war").toFile();
        return ShrinkWrap.create(ZipImporter.class, "wecom-inbox.war").importFrom(war).as(WebArchive.class);
    }
}
