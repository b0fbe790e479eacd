package io.wecominbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Dependencies point one way: the operator's package (ops) uses the product's packages, never the reverse. */
class PackageDependenciesTest {

    private static final Path MAIN = Path.of("src/main/java/io/wecominbox");

    @Test
    void noProductPackageImportsOps() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Files.walk(MAIN)) {
            offenders = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !MAIN.relativize(f).startsWith("ops"))
                    .filter(PackageDependenciesTest::importsOps)
                    .map(f -> MAIN.relativize(f).toString()).sorted().toList();
        }
        assertEquals(List.of(), offenders, "product classes that import io.wecominbox.ops");
    }

    private static boolean importsOps(Path file) {
        try {
            return Files.readAllLines(file).stream().anyMatch(l -> l.startsWith("import io.wecominbox.ops.")
                    || l.startsWith("import static io.wecominbox.ops."));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
