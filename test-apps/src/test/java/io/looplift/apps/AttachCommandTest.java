package io.looplift.apps;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attach command line on one running JVM: {@link Rounds} gets LoopLift attached, reports, is detached,
 * gets it attached again and reports again, and prints throughout exactly what it prints without LoopLift.
 * A PID whose process is gone, or is no JVM, gets one line and status 1, and is left alone.
 */
class AttachCommandTest {
  private static final String ROUNDS = "io.looplift.apps.Rounds";
  private static final String KERNELS = ROUNDS + "$Kernels";
  private static final String LIST_HINT = "'java -jar looplift-agent.jar list' shows the JVMs you can attach to";

  @TempDir Path tmp;

  /** A running {@link Rounds}, fed one line per round; its stdout is read as it comes. */
  private static final class Running implements AutoCloseable {
    /** Queued after the last line; compared by identity, so no line of output can pass for it. */
    private static final String END = new String("end of output");

    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder printed = new StringBuilder();

    Running(Path stderr) throws IOException {
      process = ForkedJvm.startWithPipes(ROUNDS, stderr);
      in = new OutputStreamWriter(process.getOutputStream(), ISO_8859_1);
      Thread reader = new Thread(() -> {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), ISO_8859_1))) {
          for (String line; (line = out.readLine()) != null; ) lines.add(line);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          lines.add(END);
        }
      }, "rounds-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    String pid() {
      return Long.toString(process.pid());
    }

    /** Runs {@code count} rounds, each over once its line is printed. */
    void rounds(int count) throws Exception {
      for (int r = 0; r < count; r++) {
        in.write("next\n");
        in.flush();
        String line = next();
        if (line == END) throw new AssertionError("the program ended while it still had rounds to run");
        printed.append(line).append('\n');
      }
    }

    /** Closes stdin, waits for the program to end with status 0, and returns all it printed. */
    String finish() throws Exception {
      in.close();
      for (String line = next(); line != END; line = next()) printed.append(line).append('\n');
      assertTrue(process.waitFor(ForkedJvm.TIMEOUT_SECONDS, SECONDS), "the program did not end");
      assertEquals(0, process.exitValue());
      return printed.toString();
    }

    private String next() throws InterruptedException {
      String line = lines.poll(ForkedJvm.TIMEOUT_SECONDS, SECONDS);
      if (line == null) throw new AssertionError("no output for " + ForkedJvm.TIMEOUT_SECONDS + " s");
      return line;
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  /** Runs the CLI, requiring exit status 0. */
  private static ForkedJvm.Result cli(String... args) {
    ForkedJvm.Result r = ForkedJvm.agentCli(args);
    assertEquals(0, r.exitCode(), () -> "the command line failed\n" + r.describe());
    return r;
  }

  /** {@code report PID}, the report printed on stdout. */
  private LoopReport report(String pid, String name) throws IOException {
    Path file = tmp.resolve(name + ".json");
    Files.writeString(file, cli("report", pid).stdout(), ISO_8859_1);
    return LoopReport.read(file);
  }

  /**
   * Offloaded runs of method {@code method} of {@link Rounds.Kernels}; the loop must be offloaded with
   * {@code kind}.
   */
  private static long offloadedRuns(LoopReport report, String method, String kind) {
    List<LoopReport.Loop> loops = report.loops().stream()
        .filter(l -> l.className().equals(KERNELS) && l.method().equals(method)).toList();
    assertEquals(1, loops.size(), () -> method + " in " + report.loops());
    LoopReport.Loop loop = loops.get(0);
    assertEquals("offloaded", loop.status(), loop::toString);
    assertEquals(kind, loop.kind(), loop::toString);
    return loop.offloadedRuns();
  }

  @Test
  void attachReportDetachAndAttachAgainOnOneRunningJvm() throws Exception {
    String plain;
    try (Running program = new Running(tmp.resolve("plain.err"))) {
      program.rounds(11);
      plain = program.finish();
    }

    Path stderr = tmp.resolve("attached.err");
    try (Running program = new Running(stderr)) {
      String pid = program.pid();
      program.rounds(2);
      cli("attach", pid, "min.length=0,log=info");
      program.rounds(3);

      LoopReport attached = report(pid, "attached");
      long scaled = offloadedRuns(attached, "scale", "map");
      assertTrue(scaled >= 3, attached.loops()::toString);
      assertTrue(offloadedRuns(attached, "mix", "map") >= 3, attached.loops()::toString);
      assertTrue(offloadedRuns(attached, "sum", "reduce") >= 3, attached.loops()::toString);

      cli("detach", pid);
      program.rounds(2);
      Path detachedReport = tmp.resolve("detached.json");
      cli("report", pid, detachedReport.toString());
      LoopReport detached = LoopReport.read(detachedReport);
      assertEquals(scaled, offloadedRuns(detached, "scale", "map"), "detached, the original loops run");

      cli("attach", pid);
      program.rounds(3);
      LoopReport again = report(pid, "again");
      assertTrue(offloadedRuns(again, "scale", "map") >= scaled + 3, again.loops()::toString);
      assertTrue(offloadedRuns(again, "sum", "reduce") >= 6, again.loops()::toString);

      cli("detach", pid);
      program.rounds(1);
      assertEquals(plain, program.finish(), "the program printed something else with LoopLift attached");
    }
    List<String> log = Files.readAllLines(stderr, ISO_8859_1);
    assertEquals(2, log.stream().filter(l -> l.startsWith("looplift: attached;")).count(), log::toString);
    assertEquals(2, log.stream().filter(l -> l.startsWith("looplift: detached;")).count(), log::toString);
    assertTrue(log.stream().noneMatch(l -> l.contains("Exception") || l.startsWith("\tat ")), log::toString);
    assertTrue(log.stream().noneMatch(l -> l.contains("VM warning")), () -> "attaching made the JVM warn: " + log);
  }

  /** A JVM that has exited: every command says so in one line, naming the PID and where to look. */
  @Test
  void aJvmThatIsGoneGetsOneLine() throws Exception {
    Process exited = ForkedJvm.startWithPipes(ProgramCatalog.DEMO.mainClass(), tmp.resolve("demo.err"));
    exited.getOutputStream().close();
    exited.getInputStream().transferTo(OutputStream.nullOutputStream());
    assertEquals(0, exited.waitFor());
    String pid = Long.toString(exited.pid());
    for (String command : List.of("attach", "report", "detach")) {
      ForkedJvm.Result r = ForkedJvm.agentCli(command, pid);
      assertEquals(1, r.exitCode(), r::describe);
      assertEquals("", r.stdout(), r::describe);
      assertEquals("looplift: JVM " + pid + " is not running (no live process has that PID); " + LIST_HINT + "\n",
          r.stderr(), r::describe);
    }
  }

  /**
   * A live process that is no JVM: the attach API would end it with SIGQUIT; the command line leaves it
   * running and says why in one line.
   */
  @Test
  void aProcessThatIsNoJvmIsLeftRunning() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "no /proc here");
    Process sleeper = new ProcessBuilder("sleep", "300").start();
    try {
      String pid = Long.toString(sleeper.pid());
      ForkedJvm.Result r = ForkedJvm.agentCli("report", pid);
      assertEquals(1, r.exitCode(), r::describe);
      assertEquals("looplift: process " + pid + " is not a JVM that can be attached to: it does not handle SIGQUIT"
          + " (a JVM does, unless it is still starting or runs with -Xrs), and the attach signal would end it; "
          + LIST_HINT + "\n", r.stderr(), r::describe);
      assertTrue(sleeper.isAlive(), "the command line ended a process that is no JVM");
    } finally {
      sleeper.destroyForcibly();
    }
  }

}
