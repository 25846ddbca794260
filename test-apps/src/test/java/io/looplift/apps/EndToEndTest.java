package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.looplift.apps.ProgramCatalog.Expectation;
import io.looplift.apps.ProgramCatalog.Program;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every program of {@link ProgramCatalog} in a forked JVM without and with the agent
 * ({@code min.length=0}, so every recognized loop goes through the pipeline) and requires the same exit
 * code, byte-identical standard output, and the report entries the catalog expects.
 */
class EndToEndTest {
  @TempDir Path tmp;

  static Stream<Program> programs() {
    return ProgramCatalog.ALL.stream();
  }

  /** The programs run again with the sequential reference executor (slow, so the smaller ones). */
  static Stream<Program> referencePrograms() {
    return Stream.of(ProgramCatalog.DEMO, ProgramCatalog.FALLBACKS, ProgramCatalog.ISOLATED_LAUNCHER);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void sameOutputAndExpectedLoopsOffloaded(Program program) throws Exception {
    assertUnderAgent(program, "", null);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("referencePrograms")
  void referenceExecutorGivesTheSameOutput(Program program) throws Exception {
    assertUnderAgent(program, "executor=reference,", "reference");
  }

  /**
   * With {@code executor=opencl} every program prints the same; where an OpenCL device exists (PoCL in CI),
   * the programs whose plain float and integer maps OpenCL runs exactly report loops that ran on it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void openclExecutorGivesTheSameOutput(Program program) throws Exception {
    LoopReport report = assertUnderAgent(program, "executor=opencl,", null);
    if (program == ProgramCatalog.DEMO || program == ProgramCatalog.SIGNAL_CHAIN || program == ProgramCatalog.HOT_TRAPS) {
      OpenClRequirement.require(!report.devices().isEmpty(), "the report lists no OpenCL device");
      assertTrue(report.loops().stream().anyMatch(l -> "opencl".equals(l.executor()) && l.offloadedRuns() > 0),
          () -> "no loop ran on OpenCL:\n  " + String.join("\n  ", report.loops().stream().map(Object::toString).toList()));
    }
  }

  /**
   * NestWork's heat diffusion steps 8 pairs of sweeps in one method: on OpenCL the 16 launches of a flush
   * move each array to the device once and back once, not at every launch (without that, each launch
   * copies its two arrays in and one back).
   */
  @Test
  void openclKeepsTheArraysOfAFlushOnTheDevice() throws Exception {
    LoopReport report = assertUnderAgent(ProgramCatalog.NEST_WORK, "executor=opencl,", null);
    OpenClRequirement.require(!report.devices().isEmpty(), "the report lists no OpenCL device");
    List<LoopReport.Kernel> sweeps = report.kernels().stream().filter(k -> k.id().contains(".diffuse:")).toList();
    long launches = sweeps.stream().mapToLong(LoopReport.Kernel::launches).sum();
    long bytes = sweeps.stream().mapToLong(LoopReport.Kernel::transferBytes).sum();
    long array = 640L * 480 * Float.BYTES;
    assertEquals(32, launches, () -> "2 rounds of 16 sweeps on OpenCL: " + sweeps);
    assertTrue(bytes <= 2 * 4 * array, () -> bytes + " bytes moved by " + sweeps);
  }

  /**
   * A program that repeats loop sequences: the trace cache and the region (macro) cache hit from the second
   * round on, and some kernel computes several loops at once.
   */
  @Test
  void repeatedSequencesHitTheTraceCacheAndFuse() throws Exception {
    LoopReport report = assertUnderAgent(ProgramCatalog.PIPELINES, "", null);
    assertTrue(report.traceCache("hits") > 0, "trace-cache hits");
    assertTrue(report.traceCache("regionHits") > 0, "region hits");
    assertTrue(report.kernelSizes().stream().anyMatch(k -> k >= 2), "a fused kernel: " + report.kernelSizes());
  }

  /**
   * HelperCalls's calibrate loop inlines a method of a class whose static initializer prints: its first run is
   * the original loop, which initializes the class where Java does (stdout is compared), the later ones offloaded.
   */
  @Test
  void aLoopInliningAMethodOfAnUninitializedClassRunsAsBytecodeUntilJavaInitializesIt() throws Exception {
    LoopReport report = assertUnderAgent(ProgramCatalog.HELPER_CALLS, "", null);
    LoopReport.Loop calibrate = report.loops().stream().filter(l -> l.method().equals("calibrate")).findFirst()
        .orElseThrow();
    assertEquals(1, calibrate.fallbackRuns(), calibrate::toString);
    assertEquals(2, calibrate.offloadedRuns(), calibrate::toString);
  }

  /**
   * Runs {@code program} plainly and under the agent with {@code options} (each ending in a comma) plus
   * {@code min.length=0} and a report, and checks output and report. {@code executor}, when not null, is
   * the executor every offloaded loop must name.
   */
  private LoopReport assertUnderAgent(Program program, String options, String executor) throws Exception {
    ForkedJvm.Result plain = ForkedJvm.plain(program.mainClass());
    assertEquals(0, plain.exitCode(), () -> "the program fails without the agent\n" + plain.describe());
    assertFalse(plain.stdout().isEmpty(), "the program prints nothing");

    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(
        List.of(ForkedJvm.agentArg(options + "min.length=0,report=" + report)), program.mainClass());
    assertEquals(plain.exitCode(), agent.exitCode(), () -> "exit code changed under the agent\n" + agent.describe());
    assertEquals(plain.stdout(), agent.stdout(), () -> "stdout changed under the agent\n" + agent.describe());

    assertTrue(Files.isRegularFile(report), () -> "the agent wrote no report\n" + agent.describe());
    LoopReport loops = LoopReport.read(report);
    List<String> problems = new ArrayList<>();
    for (Expectation e : program.expectations()) {
      String problem = loops.check(e, executor);
      if (problem != null) problems.add(problem);
    }
    if (!problems.isEmpty()) {
      fail(problems.size() + " of " + program.expectations().size() + " expectations failed:\n  "
          + String.join("\n  ", problems) + "\nreport loops:\n  "
          + String.join("\n  ", loops.loops().stream().map(Object::toString).toList()));
    }
    return loops;
  }
}
