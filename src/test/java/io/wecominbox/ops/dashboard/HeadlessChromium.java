package io.wecominbox.ops.dashboard;

import io.wecominbox.testsupport.ChildProcess;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * Runs src/test/browser/dashboard-check.mjs with node and Debian's Chromium (never a browser that a tool
 * downloads). Installs playwright-core from the package lock into target/browser first. A developer machine
 * without node or Chromium skips the browser test with the reason; CI (CI=true) fails instead, since its
 * .ci/run installs Chromium (src/test/browser/install-chromium.sh) before `mvn verify`.
 */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "dashboard-check.mjs");

    private final Path workDir = StackEnv.buildDir().resolve("browser");

    /** Skips (developer machine) or fails (CI) when node, npm or Chromium is missing. */
    static HeadlessChromium require() {
        String missing = !Files.isExecutable(CHROMIUM) ? "Chromium (" + CHROMIUM + "; apt-get install chromium, or "
                + "src/test/browser/install-chromium.sh)" : !onPath("node") || !onPath("npm") ? "node and npm" : null;
        if (missing != null) {
            unavailable("the dashboard browser test needs " + missing);
        }
        return new HeadlessChromium();
    }

    /** Copies the script and its lock into target/browser and runs `npm ci` there when the lock changed. */
    HeadlessChromium install() throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path source = StackEnv.projectDir().resolve("src/test/browser");
        boolean lockChanged = !Files.exists(workDir.resolve("node_modules/playwright-core"))
                || Files.mismatch(source.resolve("package-lock.json"), workDir.resolve("package-lock.json")) != -1;
        for (String file : FILES) {
            Files.copy(source.resolve(file), workDir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (lockChanged) {
            Process npm = ChildProcess.sharingOutput("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                    .directory(workDir.toFile()).start();
            if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
                unavailable("npm ci of playwright-core failed (offline?) in " + workDir);
            }
        }
        return this;
    }

    /** Runs the check; returns its findings (one JSON object). */
    JsonObject checkDashboard(String url, String user, String password, Path screenshot)
            throws IOException, InterruptedException {
        ProcessBuilder node = new ProcessBuilder("node", "dashboard-check.mjs").directory(workDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> env = node.environment();
        env.put("DASHBOARD_URL", url);
        env.put("DASHBOARD_USER", user);
        env.put("DASHBOARD_PASSWORD", password); // to the child's environment only, never on its command line
        env.put("SCREENSHOT", screenshot.toString());
        env.put("CHROMIUM", CHROMIUM.toString());
        Process process = node.start();
        String out = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            Assertions.fail("the browser check did not finish within 3 minutes");
        }
        String last = out.lines().reduce((a, b) -> b).orElse("");
        Assertions.assertTrue(last.startsWith("{"), "the browser check printed no findings: " + out);
        try (JsonReader reader = Json.createReader(new StringReader(last))) {
            JsonObject findings = reader.readObject();
            Assertions.assertEquals(0, process.exitValue(), "browser check failed: " + findings);
            return findings;
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    private static void unavailable(String why) {
        SkipOutsideCi.unavailable(why + " (.ci/run installs Chromium before mvn verify)");
    }
}
