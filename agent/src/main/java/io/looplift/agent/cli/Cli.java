package io.looplift.agent.cli;

import io.looplift.analyzer.ClassRewriter;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * The command line of {@code java -jar looplift-agent.jar}: attach the agent to a running JVM, detach
 * it, fetch its report, list the JVMs that can be attached to, or analyze a jar or directory without
 * running it. Bad arguments print what was wrong and the usage, and exit with status 2; a command that
 * fails exits with 1.
 */
public final class Cli {
  static final String USAGE = String.join("\n",
      "usage: java -jar looplift-agent.jar COMMAND",
      "  attach PID [key=value,...]  load LoopLift into a running JVM with these options",
      "  detach PID                  stop rewriting and restore the rewritten classes of a JVM",
      "  report PID [PATH]           have a JVM write its report to PATH (without PATH: print it)",
      "  list                        list the JVMs the attach API can see",
      "  analyze JAR|DIR [JAR|DIR...]  show which loops of the first's classes LoopLift would offload;",
      "                              the others are what they call (their dependencies)",
      "Relative paths in options are resolved against the current directory.");

  /** The end of every message about a JVM that cannot be attached to: where to find one that can. */
  static final String LIST_HINT = "'java -jar looplift-agent.jar list' shows the JVMs you can attach to";

  /** How long {@code report} waits for the target JVM's report file. */
  private static final long REPORT_WAIT_MILLIS = 10_000;

  /** Loads the agent into JVM {@code pid} with agent argument {@code argument}; passed in for tests. */
  interface Attacher {
    /** @throws Unattachable when the target is gone or is no JVM to attach to, with the line to print */
    void attach(String pid, String argument) throws Exception;
  }

  /** The target of a command cannot be attached to; the message names the PID and what to do. */
  static final class Unattachable extends Exception {
    private static final long serialVersionUID = 1L;

    Unattachable(String message) {
      super(message);
    }
  }

  private final PrintStream out;
  private final PrintStream err;
  private final Attacher attacher;
  private final Analysis.Analyzer analyzer;

  Cli(PrintStream out, PrintStream err, Attacher attacher, Analysis.Analyzer analyzer) {
    this.out = out;
    this.err = err;
    this.attacher = attacher;
    this.analyzer = analyzer;
  }

  /** Runs one command and exits with its status (0 ok, 1 failed, 2 bad arguments). */
  public static void main(String[] args) {
    int status = new Cli(System.out, System.err, Cli::attachAgentJar, ClassRewriter::analyze).run(args);
    System.out.flush();
    System.exit(status);
  }

  /** Runs the command in {@code args} and returns the exit status. */
  int run(String... args) {
    Command cmd;
    try {
      cmd = Command.parse(args);
    } catch (UsageException e) {
      return usage(e.getMessage());
    }
    try {
      if (cmd instanceof Command.Attach a) return send(a.pid(), "attach", a.options());
      if (cmd instanceof Command.Detach d) return send(d.pid(), "detach", Map.of());
      if (cmd instanceof Command.Report r) return report(r);
      if (cmd instanceof Command.ListVms) return list();
      if (cmd instanceof Command.Analyze a) return new Analysis(analyzer, out, err).run(a.target(), a.classpath());
      out.println(USAGE);
      return 0;
    } catch (UsageException e) {
      return usage(e.getMessage());
    }
  }

  private int usage(String problem) {
    err.println("looplift: " + problem);
    err.println(USAGE);
    return 2;
  }

  /** Sends {@code action} with {@code options} to JVM {@code pid}; the outcome is on that JVM's stderr. */
  private int send(String pid, String action, Map<String, String> options) {
    if (!attach(pid, Command.agentArgument(action, options))) return 1;
    out.println("looplift: sent action=" + action + " to JVM " + pid + "; the agent reports on that JVM's stderr");
    return 0;
  }

  private boolean attach(String pid, String argument) {
    try {
      attacher.attach(pid, argument);
      return true;
    } catch (Unattachable e) {
      err.println("looplift: " + e.getMessage());
      return false;
    } catch (Exception | LinkageError e) {
      err.println("looplift: cannot attach to JVM " + pid + " (" + describe(e) + "); it must be a JVM run by"
          + " the same user that allows attaching (not -XX:+DisableAttachMechanism); " + LIST_HINT);
      return false;
    }
  }

  /**
   * Asks the agent in JVM {@code pid} for its report. Without a path, the report goes to a file in a new
   * temporary directory, which is printed and removed.
   */
  private int report(Command.Report r) {
    Path path = r.path();
    Path tmpDir = null;
    try {
      if (path == null) {
        tmpDir = Files.createTempDirectory("looplift-report");
        path = tmpDir.resolve("report.json");
      } else {
        // An old report at PATH would look like the new one arriving.
        Files.deleteIfExists(path);
      }
      if (!attach(r.pid(), Command.agentArgument("report", Map.of("report", path.toString())))) return 1;
      if (!awaitFile(path)) {
        err.println("looplift: JVM " + r.pid() + " wrote no report to " + path + " within "
            + REPORT_WAIT_MILLIS / 1000 + " s; is LoopLift attached there? (its stderr says why)");
        return 1;
      }
      if (tmpDir != null) {
        out.print(Files.readString(path, StandardCharsets.UTF_8));
      } else {
        out.println("looplift: report written to " + path);
      }
      return 0;
    } catch (IOException e) {
      err.println("looplift: cannot get the report of JVM " + r.pid() + ": " + describe(e));
      return 1;
    } finally {
      if (tmpDir != null) {
        try {
          Files.deleteIfExists(path);
          Files.deleteIfExists(tmpDir);
        } catch (IOException e) {
          err.println("looplift: could not remove " + tmpDir + ": " + e);
        }
      }
    }
  }

  /**
   * Waits for the report: the agent writes it atomically (temporary file, then a move), so once the
   * file exists it is complete.
   */
  private static boolean awaitFile(Path path) {
    long deadline = System.nanoTime() + REPORT_WAIT_MILLIS * 1_000_000;
    while (!Files.exists(path)) {
      if (System.nanoTime() > deadline) return false;
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** {@code list}: the JVMs visible to the attach API, by PID, without this one. */
  private int list() {
    Optional<Module> attach = ModuleLayer.boot().findModule("jdk.attach");
    if (attach.isEmpty()) {
      err.println("looplift: this Java runtime has no attach API (module jdk.attach); run the CLI with a JDK");
      return 1;
    }
    try {
      // Reflection, because this class lives in an isolated loader whose parent (the platform loader)
      // does not see jdk.attach; the module's own loader does.
      ClassLoader loader = attach.get().getClassLoader();
      Class<?> vm = Class.forName("com.sun.tools.attach.VirtualMachine", true, loader);
      Class<?> descriptor = Class.forName("com.sun.tools.attach.VirtualMachineDescriptor", true, loader);
      Method id = descriptor.getMethod("id");
      Method displayName = descriptor.getMethod("displayName");
      String self = Long.toString(ProcessHandle.current().pid());
      List<String[]> rows = new ArrayList<>();
      for (Object d : (List<?>) vm.getMethod("list").invoke(null)) {
        String pid = (String) id.invoke(d);
        if (!pid.equals(self)) rows.add(new String[] {pid, (String) displayName.invoke(d)});
      }
      if (rows.isEmpty()) {
        out.println("looplift: no other JVM is visible to the attach API (only JVMs of the same user are)");
        return 0;
      }
      rows.sort(Comparator.comparingLong((String[] row) -> parsePid(row[0])).thenComparing(row -> row[0]));
      for (String[] row : rows) out.println(row[0] + "  " + (row[1].isEmpty() ? "(no main class)" : row[1]));
      return 0;
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      err.println("looplift: cannot list JVMs: " + cause);
      return 1;
    }
  }

  private static long parsePid(String pid) {
    try {
      return Long.parseLong(pid);
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * The real attacher: loads the agent jar this CLI runs from into JVM {@code pid}, once
   * {@link AttachTarget} finds nothing against it.
   */
  private static void attachAgentJar(String pid, String argument) throws Exception {
    Optional<String> problem = AttachTarget.problem(pid);
    if (problem.isPresent()) throw new Unattachable(problem.get());
    try {
      ByteBuddyAgent.attach(agentJar(), pid, argument);
    } catch (RuntimeException e) {
      // The JVM may have ended while the attach API waited for it: say so rather than how the API failed.
      problem = AttachTarget.problem(pid);
      if (problem.isPresent()) throw new Unattachable(problem.get());
      throw e;
    }
  }

  /**
   * The agent jar: where the launcher was loaded from. The launcher is not in this class's isolated
   * loader (whose parent is the platform loader) but in the application class loader of
   * {@code java -jar looplift-agent.jar}.
   */
  private static File agentJar() throws Exception {
    Class<?> launcher = Class.forName("io.looplift.launcher.AgentLauncher", false, ClassLoader.getSystemClassLoader());
    CodeSource cs = launcher.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) throw new IllegalStateException("cannot locate the agent jar");
    File jar = new File(cs.getLocation().toURI());
    if (!jar.isFile()) throw new IllegalStateException("not running from the agent jar (launcher found in " + jar + ")");
    return jar;
  }

  private static String describe(Throwable e) {
    Throwable t = e;
    // ByteBuddy and reflection wrap the attach API's exceptions; the innermost one says what happened.
    while (t.getCause() != null && t.getCause() != t) t = t.getCause();
    String msg = t.getMessage();
    // One line: the CLI's messages are one line each.
    if (msg == null || msg.isBlank()) return t.toString();
    return t.getClass().getSimpleName() + ": " + msg.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
