package io.wecominbox.testsupport;

import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerRoute;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The handlers the code declares, found among the compiled classes: what a test compares the broker with. */
public final class HandlersInCode {

    private HandlersInCode() {
    }

    /** Every concrete EventHandler among the compiled classes, as its route. */
    public static List<HandlerRoute> routes() throws IOException, URISyntaxException {
        Path classes = Path.of(EventHandler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<HandlerRoute> routes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/wecominbox/handler"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type;
                try {
                    type = Class.forName(name, false, EventHandler.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                if (EventHandler.class.isAssignableFrom(type) && !type.isInterface()
                        && !Modifier.isAbstract(type.getModifiers())) {
                    routes.add(HandlerRoute.of(instance(type)));
                }
            }
        }
        routes.sort(Comparator.comparing(HandlerRoute::handler));
        return routes;
    }

    private static EventHandler instance(Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return (EventHandler) constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type + " needs a no-argument constructor (CDI gives it one)", e);
        }
    }
}
