package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OpenCL leaves no trace in the program's JVM. The OpenCL host process owns the driver, so HotSpot keeps its
 * own signal handlers (exceptions from compiled code, shutdown hooks), stdout stays the program's, no JOCL
 * class loads in the program, and the host ends with the program however the program ends. Each test runs
 * unmodified programs of test-apps in forked JVMs, with default options and with {@code executor=opencl}.
 */
class OpenClLeavesNoTraceTest {
  private static final String TRAPS = ProgramCatalog.HOT_TRAPS.mainClass();
  private static final String SERVICE = ProgramCatalog.UNTIL_INTERRUPTED.mainClass();

  @TempDir Path tmp;

  /**
   * Requires that loops of {@code method} ran on OpenCL; where the report lists no OpenCL device at all, the
   * test is skipped instead, or fails under the CI switch.
   */
  private static void assertRanOnOpenCl(LoopReport report, String method, ForkedJvm.Result run) {
    OpenClRequirement.require(!report.devices().isEmpty(), "the report lists no OpenCL device\n" + run.describe());
    assertTrue(report.loops().stream().anyMatch(l -> l.method().equals(method) && "opencl".equals(l.executor()) && l.offloadedRuns() > 0),
        () -> method + " never ran on OpenCL: " + report.loops() + "\n" + run.describe());
  }

  /** Integer division by zero and null dereference in hot compiled code throw as they do without the agent. */
  @ParameterizedTest(name = "options \"{0}\"")
  @ValueSource(strings = {"", "executor=opencl,"})
  void trapsInCompiledCodeCountTheSame(String options) throws IOException {
    ForkedJvm.Result plain = ForkedJvm.plain(TRAPS);
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg(options + "report=" + report)), TRAPS);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertTrue(plain.stdout().contains("divisions by zero caught 2000"), plain.stdout());
    if (!options.isEmpty()) assertRanOnOpenCl(LoopReport.read(report), "scale", agent);
  }

  /**
   * {@code -Xcheck:jni} makes HotSpot check its signal handlers periodically and report every one a native
   * library replaced ("SIGFPE handler modified!"), on stdout. With kernels running on OpenCL, there is none.
   */
  @Test
  void noSignalHandlerIsReplaced() throws IOException {
    ForkedJvm.Result plain = ForkedJvm.run(List.of("-Xcheck:jni"), TRAPS);
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of("-Xcheck:jni", ForkedJvm.agentArg("executor=opencl,report=" + report)), TRAPS);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    String all = (agent.stdout() + agent.stderr()).toLowerCase(Locale.ROOT);
    assertFalse(all.contains("handler modified"), agent::describe);
    assertRanOnOpenCl(LoopReport.read(report), "scale", agent);
  }

  /**
   * Ctrl-C while loops run offloaded: the terminal's SIGINT reaches the program and the host process alike.
   * The program runs its own shutdown hook, LoopLift writes its report, and the host ends with the program.
   */
  @ParameterizedTest(name = "options \"{0}\"")
  @ValueSource(strings = {"", "executor=opencl,"})
  void ctrlCRunsTheProgramsHookAndLoopLiftWritesItsReport(String options) throws Exception {
    Path report = tmp.resolve("report.json");
    try (ForkedJvm.Running service = ForkedJvm.start(List.of(), List.of(ForkedJvm.agentArg(options + "report=" + report)),
        SERVICE, List.of("forever"), Map.of())) {
      awaitOutput(service, "running,");
      List<ProcessHandle> started = service.process.descendants().toList();
      List<String> kill = new ArrayList<>(List.of("kill", "-INT", Long.toString(service.process.pid())));
      for (ProcessHandle p : started) kill.add(Long.toString(p.pid()));
      assertEquals(0, new ProcessBuilder(kill).inheritIO().start().waitFor(), "kill " + kill);
      ForkedJvm.Result run = service.await();
      assertEquals(130, run.exitCode(), run::describe); // 128 + SIGINT: the JVM ended through its shutdown
      assertTrue(run.stdout().contains("shutdown hook ran\n"), run::describe);
      assertFalse(run.stdout().contains("never interrupted"), run::describe);
      LoopReport r = LoopReport.read(report);
      assertTrue(r.loops().stream().anyMatch(l -> l.method().equals("relax")), () -> r.loops().toString());
      if (options.isEmpty()) {
        assertEquals(List.of(), started, "default options start no OpenCL host");
      } else {
        assertRanOnOpenCl(r, "relax", run);
        assertEquals(1, started.size(), () -> "one host process: " + started);
      }
      for (ProcessHandle p : started) p.onExit().get(10, TimeUnit.SECONDS); // nothing outlives the program
    }
  }

  /** A program killed outright (SIGKILL, no shutdown at all) takes its OpenCL host process with it. */
  @Test
  void theHostEndsWithTheProgramEvenWhenItIsKilled() throws Exception {
    try (ForkedJvm.Running service = ForkedJvm.start(List.of(), List.of(ForkedJvm.agentArg("executor=opencl")),
        SERVICE, List.of("forever"), Map.of())) {
      awaitOutput(service, "running,");
      List<ProcessHandle> started = service.process.descendants().toList();
      OpenClRequirement.require(!started.isEmpty(), "no OpenCL host process was started");
      service.process.destroyForcibly().waitFor();
      for (ProcessHandle p : started) p.onExit().get(10, TimeUnit.SECONDS);
    }
  }

  /** The program's JVM loads no class of JOCL, though its loops ran on OpenCL. */
  @Test
  void theProgramsJvmLoadsNoJoclClass() throws IOException {
    Path classes = tmp.resolve("classes.log");
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of("-Xlog:class+load=info:file=" + classes,
        ForkedJvm.agentArg("executor=opencl,report=" + report)), TRAPS);
    assertEquals(ForkedJvm.plain(TRAPS).stdout(), agent.stdout(), agent::describe);
    String loaded = Files.readString(classes);
    assertTrue(loaded.contains("io.looplift.executors.opencl.OpenClExecutor "), "the log lists LoopLift's classes");
    assertFalse(loaded.contains("org.jocl."), () -> loaded.lines().filter(l -> l.contains("org.jocl.")).toList().toString());
    assertRanOnOpenCl(LoopReport.read(report), "scale", agent);
  }

  /**
   * An agent given through {@code JAVA_TOOL_OPTIONS} runs in the program's JVM only: the host process gets
   * neither that variable nor LoopLift's options, so it never starts an agent (and a host) of its own.
   */
  @Test
  void agentOptionsInTheEnvironmentStayInTheProgramsJvm() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(), TRAPS, Map.of("JAVA_TOOL_OPTIONS",
        ForkedJvm.agentArg("executor=opencl,log=debug,report=" + report)));
    assertEquals(ForkedJvm.plain(TRAPS).stdout(), agent.stdout(), agent::describe);
    assertEquals(1, agent.stderr().lines().filter(l -> l.contains("Picked up JAVA_TOOL_OPTIONS")).count(), agent::describe);
    assertRanOnOpenCl(LoopReport.read(report), "scale", agent);
  }

  private static void awaitOutput(ForkedJvm.Running running, String text) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ForkedJvm.TIMEOUT_SECONDS);
    while (!running.stdoutSoFar().contains(text)) {
      if (!running.process.isAlive()) fail("ended before it printed '" + text + "': " + running.await().describe());
      if (System.nanoTime() > deadline) {
        running.kill();
        fail("never printed '" + text + "' in " + ForkedJvm.TIMEOUT_SECONDS + " s: " + running.stdoutSoFar());
      }
      Thread.sleep(50);
    }
  }
}
