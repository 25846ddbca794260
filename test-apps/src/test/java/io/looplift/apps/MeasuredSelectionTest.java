package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code executor=auto} by measurement, with default options: the selection measures the original bytecode
 * against the executors, says so in the report, and keeps what it measured under {@code cache.dir}, so that a
 * second run of the same program measures nothing it already knows (nor analyzes at load what the first found
 * nothing in). Output is the same as without the agent in both runs.
 */
class MeasuredSelectionTest {
  private static final String PROGRAM = ProgramCatalog.FRESH_OUTPUTS.mainClass();

  @TempDir Path tmp;

  private LoopReport run(Path cacheDir, String name, String... args) throws IOException {
    return run(cacheDir, Map.of(), name, args);
  }

  private LoopReport run(Path cacheDir, Map<String, String> env, String name, String... args) throws IOException {
    Path report = tmp.resolve(name + ".json");
    // One after the other: a plain JVM beside the agent's would take the cores its parallel kernels were
    // measured with, and five slow launches in a row have a persisted choice measured again (drift).
    ForkedJvm.Result plain;
    try (ForkedJvm.Running p = ForkedJvm.start(List.of(), List.of(), PROGRAM, List.of(args), Map.of())) {
      plain = p.await();
    }
    ForkedJvm.Result agent;
    try (ForkedJvm.Running a = ForkedJvm.start(List.of(),
        List.of(ForkedJvm.agentArg("log=info,report=" + report + ",cache.dir=" + cacheDir)), PROGRAM,
        List.of(args), env)) {
      agent = a.await();
    }
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), () -> "stdout changed under the agent\n" + agent.describe());
    assertTrue(agent.stderr().contains(" chose "), () -> "log=info names each loop's choice\n" + agent.describe());
    return LoopReport.read(report);
  }

  private static LoopReport.Loop loop(LoopReport r, String method) {
    return r.loops().stream().filter(l -> l.method().equals(method)).findFirst().orElseThrow();
  }

  /** Each loop's place, kind and status, in order. */
  private static List<String> where(LoopReport r) {
    return r.loops().stream().map(l -> l.className() + "." + l.method() + l.descriptor() + ":" + l.line() + " "
        + l.kind() + " " + l.status()).sorted().toList();
  }

  private static long number(Map<?, ?> selection, String key) {
    return ((Number) selection.get(key)).longValue();
  }

  @Test
  void aSecondRunUsesWhatTheFirstMeasured() throws IOException {
    Path cache = tmp.resolve("cache");
    // Without OpenCL, so that no device joins the candidates part-way. Enough rounds for the element-wise loops
    // to pay for opening the executors (150 ms as bytecode: 30 of the 160 here, more on faster memory) and then
    // to finish measuring at their one size.
    Map<String, String> noOpenCl = Map.of("OCL_ICD_VENDORS",
        Files.createDirectory(tmp.resolve("no-vendors")).toString(), "OCL_ICD_FILENAMES", "");
    String[] args = {String.valueOf(1 << 22), "160"};
    LoopReport first = run(cache, noOpenCl, "first", args);
    List<LoopReport.Loop> measured = first.loops().stream()
        .filter(l -> l.selection() != null && "measured".equals(l.selection().get("source"))).toList();
    assertFalse(measured.isEmpty(), "no loop finished measuring: " + first.loops());
    for (LoopReport.Loop l : measured) {
      Map<?, ?> candidates = (Map<?, ?>) l.selection().get("candidates");
      assertTrue(candidates.containsKey("bytecode") && candidates.containsKey("jvm"), () -> l + " " + candidates);
      assertTrue(number(l.selection(), "measuringRuns") > 0 && number(l.selection(), "measuringNanos") > 0, l::toString);
    }
    LoopReport second = run(cache, noOpenCl, "second", args);
    // What the first run's analysis found worth analyzing was kept too: the second analyzed only that at load,
    // and its report, which had the rest analyzed at exit, lists every loop as the first did.
    assertTrue(second.rememberedClasses() > 0, "the second run analyzed every class anew");
    assertEquals(0, first.rememberedClasses());
    assertEquals(where(first), where(second));
    for (LoopReport.Loop was : measured) {
      LoopReport.Loop now = second.loops().stream()
          .filter(l -> l.method().equals(was.method()) && l.line() == was.line()).findFirst().orElseThrow();
      assertEquals("persisted", now.selection().get("source"), now::toString);
      assertEquals(0, number(now.selection(), "measuringRuns"), now::toString);
      assertEquals(0, number(now.selection(), "measuringNanos"), now::toString);
      assertEquals(was.selection().get("executor"), now.selection().get("executor"), now::toString);
    }
  }

  /**
   * A memory-bound loop that runs long enough for a device to be worth a try is measured on the OpenCL device
   * too, transfers included, and is not sent there: moving 64 MiB to add two arrays costs more than adding them.
   */
  @Test
  void theOpenClDeviceIsMeasuredAndNotChosenForAMemoryBoundLoop() throws IOException {
    LoopReport r = run(tmp.resolve("cache"), "device", String.valueOf(1 << 22), "100");
    OpenClRequirement.require(!r.devices().isEmpty(), "no OpenCL device was found");
    Map<?, ?> selection = loop(r, "ebeAdd").selection();
    Map<?, ?> candidates = (Map<?, ?>) selection.get("candidates");
    assertTrue(candidates.containsKey("opencl:0"), () -> "measured on the device: " + selection);
    assertTrue(((Map<?, ?>) selection.get("transfers")).containsKey("opencl:0"), () -> "transfers: " + selection);
    assertTrue(!"opencl:0".equals(selection.get("executor")), () -> "sent to the device: " + selection);
  }
}
