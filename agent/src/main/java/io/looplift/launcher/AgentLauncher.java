package io.looplift.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The agent jar's entry points ({@code Premain-Class}, {@code Agent-Class}, {@code Main-Class}). Does as
 * little as possible: makes the bootstrap loader define the bridge (so that {@code LoopBridge} resolves from
 * every class loader), loads the nested {@code looplift-impl.jar} in an isolated class loader whose
 * parent is the platform loader, and hands over to {@code io.looplift.agent.LoopLiftAgent} (or, for
 * {@code java -jar}, to {@code io.looplift.agent.cli.Cli}).
 *
 * <p>Must not reference any other LoopLift class: whatever it touched would load in the application
 * class loader, beside and before the copies the agent really uses.
 */
public final class AgentLauncher {
  private static final String IMPL_JAR = "looplift-impl.jar";
  private static final String BRIDGE = "io.looplift.bridge.LoopBridge";
  private static final String BRIDGE_PACKAGE = "io/looplift/bridge/";

  /**
   * The isolated loader, kept so that later {@code agentmain} calls (the attach CLI's detach and report
   * actions) reach the agent that is already running instead of starting a second one.
   */
  private static ClassLoader implLoader; // guarded by AgentLauncher.class

  private AgentLauncher() {}

  /** Entry point for {@code -javaagent:looplift-agent.jar[=options]}. Never throws. */
  public static void premain(String args, Instrumentation inst) {
    launch(args, inst, false);
  }

  /** Entry point for attaching to a running JVM (and for the attach CLI's actions). Never throws. */
  public static void agentmain(String args, Instrumentation inst) {
    launch(args, inst, true);
  }

  /** Entry point for {@code java -jar looplift-agent.jar ...}: the attach and analysis CLI. */
  public static void main(String[] argv) throws Throwable {
    ClassLoader loader = implLoader(null);
    Method main = loader.loadClass("io.looplift.agent.cli.Cli").getMethod("main", String[].class);
    Thread.currentThread().setContextClassLoader(loader);
    try {
      main.invoke(null, (Object) argv);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void launch(String args, Instrumentation inst, boolean attached) {
    try {
      ClassLoader loader = implLoader(inst);
      Method start = loader.loadClass("io.looplift.agent.LoopLiftAgent")
          .getMethod("start", String.class, Instrumentation.class, boolean.class);
      start.invoke(null, args, inst, attached);
    } catch (Throwable e) {
      Throwable cause = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
      System.err.println("looplift: could not start (" + cause + "); the program runs without LoopLift");
    }
  }

  /**
   * The isolated loader over the nested implementation jar, created on first use. With {@code inst}, the
   * bridge is first made visible to the bootstrap loader (once per JVM): its classes are defined there
   * ({@link #defineBridge}), and only where that fails is the agent jar appended to the bootstrap class
   * path. Appending a jar once the program runs (from {@code premain} or on attach, or through a
   * {@code Boot-Class-Path} manifest attribute on attach) makes HotSpot print a warning on the program's
   * stderr and stop sharing archived classes of the other loaders.
   */
  private static synchronized ClassLoader implLoader(Instrumentation inst) throws Exception {
    if (implLoader != null) return implLoader;
    Path agentJar = agentJar();
    if (inst != null && !onBootClassPath() && !defineBridge(inst, agentJar)) {
      inst.appendToBootstrapClassLoaderSearch(new JarFile(agentJar.toFile()));
    }
    Path impl;
    try (JarFile jar = new JarFile(agentJar.toFile())) {
      JarEntry entry = jar.getJarEntry(IMPL_JAR);
      if (entry == null) throw new IllegalStateException(agentJar + " holds no " + IMPL_JAR);
      impl = extract(jar, entry);
    }
    implLoader = new URLClassLoader("looplift", new URL[] {impl.toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
    return implLoader;
  }

  /**
   * Copies {@code entry} to a new file in the temporary directory, deleted at exit. The name comes from the
   * clock, not from {@code Files.createTempFile}, whose {@code SecureRandom} takes a tenth of a second to
   * seed at start-up; the file is created with {@code CREATE_NEW}, which fails on any file or link already
   * there, so a name taken (by another JVM, or planted by another user) only makes it try the next.
   */
  private static Path extract(JarFile jar, JarEntry entry) throws IOException {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    for (int attempt = 0; ; attempt++) {
      Path impl = dir.resolve("looplift-impl-" + Long.toHexString(System.nanoTime()) + ".jar");
      try (OutputStream out = Files.newOutputStream(impl, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        impl.toFile().deleteOnExit();
        try (InputStream in = jar.getInputStream(entry)) {
          in.transferTo(out);
        }
        return impl;
      } catch (FileAlreadyExistsException e) {
        if (attempt == 100) throw e;
      }
    }
  }

  /**
   * Defines the classes of the agent jar's bridge package in the bootstrap loader, through
   * {@code jdk.internal.misc.Unsafe}, which {@code inst} exports to this class. False when that fails (a
   * JDK without it); classes defined before the failure are the jar's own, so appending the jar then is
   * still consistent.
   */
  private static boolean defineBridge(Instrumentation inst, Path agentJar) {
    try (JarFile jar = new JarFile(agentJar.toFile())) {
      Module base = Object.class.getModule();
      inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(AgentLauncher.class.getModule())),
          Map.of(), Set.of(), Map.of());
      Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
      Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
      Method define = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
          ClassLoader.class, ProtectionDomain.class);
      for (JarEntry e : Collections.list(jar.entries())) {
        String name = e.getName();
        if (!name.startsWith(BRIDGE_PACKAGE) || !name.endsWith(".class")) continue;
        byte[] bytes;
        try (InputStream in = jar.getInputStream(e)) {
          bytes = in.readAllBytes();
        }
        String binaryName = name.substring(0, name.length() - ".class".length()).replace('/', '.');
        define.invoke(unsafe, binaryName, bytes, 0, bytes.length, null, null);
      }
      return onBootClassPath();
    } catch (Exception | LinkageError e) {
      return false;
    }
  }

  /** Whether the bootstrap loader finds the bridge; loads it there (uninitialized) if so. */
  private static boolean onBootClassPath() {
    try {
      Class.forName(BRIDGE, false, null);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * The jar this class was loaded from: its code source, or for the bootstrap loader (which gives its classes
   * none) the jar its class file is read from.
   */
  private static Path agentJar() throws Exception {
    CodeSource cs = AgentLauncher.class.getProtectionDomain().getCodeSource();
    URL location = cs != null ? cs.getLocation() : null;
    if (location == null) {
      URL self = AgentLauncher.class.getResource(AgentLauncher.class.getSimpleName() + ".class");
      if (self == null || !(self.openConnection() instanceof JarURLConnection jar)) {
        throw new IllegalStateException("cannot locate the agent jar (" + self + ")");
      }
      location = jar.getJarFileURL();
    }
    Path p = Path.of(location.toURI());
    if (!Files.isRegularFile(p)) throw new IllegalStateException("the agent is not running from a jar: " + p);
    return p;
  }
}
