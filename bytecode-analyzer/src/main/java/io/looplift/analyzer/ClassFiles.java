package io.looplift.analyzer;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Other classes' class files, read through the class loader that would load them, and what is remembered of
 * them across the analyses of a process. Reading one is dear on the class-loading path: a loader looks in
 * every module of the JDK before its own class path, then a jar entry is inflated and decoded. And the
 * classes of a program mostly ask about the same few (their superclasses, the library classes they call), so
 * the {@link ClassFacts} of each class are read once per loader and kept, at most {@link #KEPT_PER_LOADER}
 * per loader; whether a loader gives its classes' files back is asked once per package. Loaders are held
 * weakly: nothing here keeps one alive. Thread-safe.
 */
final class ClassFiles {
  /** The most classes whose facts are kept per loader; beyond, the others are read each time they are asked. */
  static final int KEPT_PER_LOADER = 4096;

  /** Stands for a class file that could not be read or parsed. */
  private static final ClassFacts MISSING = new ClassFacts("", 0, null, List.of(), List.of(), false);

  /** By loader (null for the bootstrap loader, and for every class of {@code java/}): facts by internal name. */
  private static final Map<ClassLoader, Map<String, ClassFacts>> FACTS = Collections.synchronizedMap(new WeakHashMap<>());
  /** By loader: whether it gave back the class file of the first class asked of a package, by package. */
  private static final Map<ClassLoader, Map<String, Boolean>> GIVES_BACK = Collections.synchronizedMap(new WeakHashMap<>());

  private ClassFiles() {}

  /**
   * The facts of class {@code internalName} as {@code loader} (null for the bootstrap loader) would load
   * it, or null when its class file cannot be found or read.
   */
  static ClassFacts facts(ClassLoader loader, String internalName) {
    // Only the bootstrap loader defines java.*: such a class is the same whichever loader asks.
    Map<String, ClassFacts> known = FACTS.computeIfAbsent(internalName.startsWith("java/") ? null : loader,
        l -> new ConcurrentHashMap<>());
    ClassFacts facts = known.get(internalName);
    if (facts == null) {
      facts = read(loader, internalName);
      if (known.size() < KEPT_PER_LOADER) known.putIfAbsent(internalName, facts);
    }
    return facts == MISSING ? null : facts;
  }

  private static ClassFacts read(ClassLoader loader, String internalName) {
    try (InputStream in = open(loader, internalName)) {
      return in == null ? MISSING : ClassFacts.parse(in.readAllBytes());
    } catch (IOException | RuntimeException e) {
      return MISSING;
    }
  }

  /**
   * The class file of {@code internalName} through {@code loader}, or else through the system class loader;
   * null when neither has it.
   */
  static InputStream open(ClassLoader loader, String internalName) {
    String resource = internalName + ".class";
    InputStream in = loader != null ? loader.getResourceAsStream(resource) : null;
    return in != null ? in : ClassLoader.getSystemResourceAsStream(resource);
  }

  /**
   * Whether {@code loader} can most likely give back the class file of its class {@code internalName} later,
   * by name: asked of the loader for the first class of each package, and assumed alike for the rest of
   * that package. (A loader that defines classes from bytes it made — proxies, generated code — in a package
   * whose other classes come from a jar is the exception; what reads the files back must bear a miss.)
   */
  static boolean givesBack(ClassLoader loader, String internalName) {
    if (loader == null) return false;
    int slash = internalName.lastIndexOf('/');
    String pkg = slash < 0 ? "" : internalName.substring(0, slash);
    Function<String, Boolean> ask = p -> loader.getResource(internalName + ".class") != null;
    return GIVES_BACK.computeIfAbsent(loader, l -> new ConcurrentHashMap<>()).computeIfAbsent(pkg, ask);
  }
}
