package io.looplift.agent;

import io.looplift.runtime.Log;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import javax.management.DynamicMBean;
import javax.management.ObjectName;

/**
 * The compiler directive that keeps the class-loading path's code (the transformer, the analyzer and its
 * ASM) away from C2: the JIT then compiles it with C1 alone. That code runs for every class a program loads,
 * enough to be compiled, but mostly in a program's first seconds and then hardly again, so C2's compilations
 * of its large methods (ASM's frame interpreters and class reader, the pre-scan, each recompiled after
 * deoptimizations as new classes take new paths through them) cost more compiler time than they save, on
 * the cores the program starts on. Only those packages: the runtime, the executors and the kernels they
 * generate keep C2. Excluded methods can still be inlined, and the JDK's transformer dispatch
 * ({@code sun.instrument.InstrumentationImpl.transform}), hot as every class loads, is compiled by C2: so C2
 * may not inline LoopLift's code there either (it took 0.8 s of C2's time in a Spark job's start).
 *
 * <p>HotSpot takes a directive through its DiagnosticCommand MBean (jcmd's {@code Compiler.directives_add}).
 * Reached through the platform MBean server, that would start the server, which initializes
 * {@code java.util.logging} (too early in {@code premain} for a program that installs its own
 * {@code LogManager}) and leaves a megabyte of introspected MBeans in the heap, which each young collection
 * then copies until it is old. So {@link #addNow} calls the MBean implementation's own command entry in
 * {@code jdk.management} directly (opened to the agent for that): it starts nothing and does not build the
 * MBean's description of every diagnostic command either. On a JDK where that is not possible,
 * {@link #addThroughMBeanServer} does it once the platform MBean server runs. Best effort: without either,
 * nothing changes.
 */
final class CompilerDirective {
  /** HotSpot's compiler directives format. */
  static final String C1_ONLY = "[{match: [\"io/looplift/analyzer/*.*\", \"io/looplift/shaded/asm/*.*\","
      + " \"io/looplift/agent/LoopTransformer.*\"], c2: {Exclude: true}},"
      + " {match: \"sun/instrument/*.*\", c2: {inline: \"-io/looplift/*.*\"}}]";
  private static final String IMPLEMENTATION = "com.sun.management.internal.DiagnosticCommandImpl";
  /** The class whose initialization loads the native library behind {@link #IMPLEMENTATION}. */
  private static final String LIBRARY_LOADER = "com.sun.management.internal.PlatformMBeanProviderImpl";
  /** The command as the MBean names it, with the signature of its one parameter, and as jcmd does. */
  private static final String OPERATION = "compilerDirectivesAdd";
  private static final String[] OPERATION_SIGNATURE = {String[].class.getName()};
  private static final String COMMAND = "Compiler.directives_add";

  private CompilerDirective() {}

  /** Adds the directive at once without the MBean server; false when this JDK does not allow it. */
  static boolean addNow(Instrumentation inst, Log log) {
    try {
      Module management = ModuleLayer.boot().findModule("jdk.management").orElse(null);
      if (management == null) return false;
      String pkg = IMPLEMENTATION.substring(0, IMPLEMENTATION.lastIndexOf('.'));
      inst.redefineModule(management, Set.of(), Map.of(), Map.of(pkg, Set.of(CompilerDirective.class.getModule())),
          Set.of(), Map.of());
      Class.forName(LIBRARY_LOADER, true, management.getClassLoader());
      Method get = Class.forName(IMPLEMENTATION, true, management.getClassLoader())
          .getDeclaredMethod("getDiagnosticCommandMBean");
      get.setAccessible(true);
      DynamicMBean bean = (DynamicMBean) get.invoke(null);
      if (bean == null) return false; // this VM runs no diagnostic commands remotely
      return add(commandEntry(bean), log);
    } catch (Exception | LinkageError e) {
      log.debug("could not add the compiler directive for the transformer directly (" + e + "); later, through the MBean server");
      return false;
    }
  }

  /**
   * The implementation's private {@code executeDiagnosticCommand(String)}, which runs a command line as jcmd
   * sends it; the bean's {@code invoke} where this JDK has no such method (it describes every command first).
   */
  private static DiagnosticCommands commandEntry(DynamicMBean bean) {
    try {
      Method execute = bean.getClass().getDeclaredMethod("executeDiagnosticCommand", String.class);
      execute.setAccessible(true);
      return file -> execute.invoke(bean, COMMAND + " \"" + file + "\""); // quoted: the folder may hold spaces
    } catch (NoSuchMethodException | RuntimeException e) {
      return file -> bean.invoke(OPERATION, operationParams(file), OPERATION_SIGNATURE);
    }
  }

  /** Adds the directive through the platform MBean server, which the caller knows is running. */
  static void addThroughMBeanServer(Log log) {
    add(file -> ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), OPERATION, operationParams(file),
        OPERATION_SIGNATURE), log);
  }

  /** The MBean operation's arguments: the command line's one argument, the file. */
  private static Object[] operationParams(Path file) {
    return new Object[] {new String[] {file.toString()}};
  }

  /** The DiagnosticCommand MBean, however it is reached: adds the directives in a file. */
  private interface DiagnosticCommands {
    Object addDirectives(Path file) throws Exception;
  }

  /** Writes the directive to a temporary file, has {@code commands} add it, removes the file; true when added. */
  private static boolean add(DiagnosticCommands commands, Log log) {
    Path file = null;
    try {
      file = Path.of(System.getProperty("java.io.tmpdir"),
          "looplift-directives-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime()) + ".json");
      Files.writeString(file, C1_ONLY, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Object out = commands.addDirectives(file);
      if (log.debug()) log.debug("compiler directive for the transformer: " + String.valueOf(out).strip());
      return true;
    } catch (Exception | LinkageError e) {
      log.debug("could not add the compiler directive for the transformer (" + e + "); C2 may compile it");
      return false;
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (Exception e) {
          // Left in the temporary directory; harmless.
        }
      }
    }
  }
}
