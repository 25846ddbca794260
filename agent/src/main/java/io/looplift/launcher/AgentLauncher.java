package io.looplift.launcher;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The agent jar's entry points ({@code Premain-Class}, {@code Agent-Class}, {@code Main-Class}). Does as
 * little as possible: puts the agent jar on the bootstrap class path (so that {@code LoopBridge} resolves
 * from every class loader), loads the nested {@code looplift-impl.jar} in an isolated class loader whose
 * parent is the platform loader, and hands over to {@code io.looplift.agent.LoopLiftAgent} (or, for
 * {@code java -jar}, to {@code io.looplift.agent.cli.Cli}).
 *
 * <p>Must not reference any other LoopLift class: whatever it touched would load in the application
 * class loader, beside and before the copies the agent really uses.
 */
public final class AgentLauncher {
  private static final String IMPL_JAR = "looplift-impl.jar";

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
   * agent jar is first appended to the bootstrap class path (once per JVM).
   */
  private static synchronized ClassLoader implLoader(Instrumentation inst) throws Exception {
    if (implLoader != null) return implLoader;
    Path agentJar = agentJar();
    if (inst != null) inst.appendToBootstrapClassLoaderSearch(new JarFile(agentJar.toFile()));
    Path impl = Files.createTempFile("looplift-impl-", ".jar");
    impl.toFile().deleteOnExit();
    try (JarFile jar = new JarFile(agentJar.toFile())) {
      JarEntry entry = jar.getJarEntry(IMPL_JAR);
      if (entry == null) throw new IllegalStateException(agentJar + " holds no " + IMPL_JAR);
      try (InputStream in = jar.getInputStream(entry)) {
        Files.copy(in, impl, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    implLoader = new URLClassLoader("looplift", new URL[] {impl.toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
    return implLoader;
  }

  /** The jar this class was loaded from. */
  private static Path agentJar() throws Exception {
    CodeSource cs = AgentLauncher.class.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) throw new IllegalStateException("cannot locate the agent jar");
    Path p = Path.of(cs.getLocation().toURI());
    if (!Files.isRegularFile(p)) throw new IllegalStateException("the agent is not running from a jar: " + p);
    return p;
  }
}
