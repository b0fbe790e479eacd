package io.wecominbox.testsupport;

import io.wecominbox.handler.DeclaredHandler;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerRoute;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The handlers the code declares, found among the compiled classes: what a test compares the broker and the
 * server configuration with.
 */
public final class HandlersInCode {

    private HandlersInCode() {
    }

    /** Every concrete EventHandler among the compiled classes, as its route. */
    public static List<HandlerRoute> routes() throws IOException, URISyntaxException {
        return declared().stream().map(DeclaredHandler::route).toList();
    }

    /** Every concrete EventHandler among the compiled classes, as its descriptor, by name. */
    public static List<DeclaredHandler> declared() throws IOException, URISyntaxException {
        List<DeclaredHandler> declared = new ArrayList<>();
        for (Class<?> type : classes("io/wecominbox/handler")) {
            if (EventHandler.class.isAssignableFrom(type) && !type.isInterface()
                    && !Modifier.isAbstract(type.getModifiers())) {
                // a handler without a descriptor fails here, naming its class
                declared.add(DeclaredHandler.of(type));
            }
        }
        declared.sort(Comparator.comparing(DeclaredHandler::name));
        return declared;
    }

    /** The compiled application classes under {@code folder} (e.g. io/wecominbox/handler), unlinked. */
    public static List<Class<?>> classes(String folder) throws IOException, URISyntaxException {
        Path classes = Path.of(EventHandler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve(folder))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                try {
                    found.add(Class.forName(name, false, EventHandler.class.getClassLoader()));
                } catch (ClassNotFoundException | LinkageError e) {
                    // a class whose dependencies are not on the test classpath is not one we look for
                }
            }
        }
        return found;
    }
}
