package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad options produce one clear message on stderr, never a stack trace, and never change what the
 * program prints; logging goes to stderr only.
 */
class AgentOptionsTest {
  private static final String DEMO = ProgramCatalog.DEMO.mainClass();

  /**
   * {@code words} must all appear in the message: for a bad value, the value and the accepted values; for
   * an unknown key, the accepted keys.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "executor=gpu | executor | gpu auto jvm opencl reference",
      "foo=1        | foo      | executor min.length report"})
  void badOptionGivesOneClearLineAndTheSameOutput(String option, String key, String words) {
    ForkedJvm.Result plain = ForkedJvm.plain(DEMO);
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0," + option)), DEMO);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);

    List<String> lines = agent.stderr().lines().filter(l -> l.contains(key)).toList();
    assertEquals(1, lines.size(), () -> "expected exactly one stderr line naming '" + key + "'\n" + agent.describe());
    String line = lines.get(0);
    for (String word : words.split(" ")) {
      assertTrue(line.contains(word), () -> "the message does not name '" + word + "': " + line);
    }
    assertTrue(agent.stderr().lines().noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception")),
        () -> "a stack trace or exception on stderr\n" + agent.describe());
  }

  /**
   * With default options the agent says nothing, and neither does the JVM because of it: HotSpot warns on
   * stderr when a running agent appends a jar to the bootstrap class path, which the launcher avoids by
   * defining the bridge there instead. The same under another name for the jar, and with the loops offloaded.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {"looplift-agent.jar | ''", "my-tools-1.0.jar | executor=jvm,min.length=0"})
  void theAgentAddsNothingToStderr(String jarName, String options, @TempDir Path tmp) throws Exception {
    Path jar = Files.copy(ForkedJvm.agentJar(), tmp.resolve(jarName));
    Path report = tmp.resolve("report.json");
    String mainClass = ProgramCatalog.FRESH_OUTPUTS.mainClass();
    ForkedJvm.Result plain = ForkedJvm.plain(mainClass);
    String arg = "-javaagent:" + jar + "=report=" + report + (options.isEmpty() ? "" : "," + options);
    ForkedJvm.Result agent = ForkedJvm.run(List.of(arg), mainClass);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertEquals(plain.stderr(), agent.stderr(), agent::describe);
    if (!options.isEmpty()) {
      assertTrue(LoopReport.read(report).loops().stream().anyMatch(l -> l.offloadedRuns() > 0),
          () -> "nothing offloaded through the renamed jar: " + agent.describe());
    }
  }

  @Test
  void debugLoggingLeavesStdoutAlone() {
    ForkedJvm.Result plain = ForkedJvm.plain(DEMO);
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0,log=debug")), DEMO);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertFalse(agent.stderr().isBlank(), () -> "log=debug logged nothing\n" + agent.describe());
  }

  /** With no OpenCL platform at all, {@code executor=opencl} says so once and the loops run on the jvm executor. */
  @Test
  void openclWithoutAnyPlatformFallsBackToTheJvm(@TempDir Path tmp) throws Exception {
    Path vendors = Files.createDirectory(tmp.resolve("no-vendors"));
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result plain = ForkedJvm.plain(DEMO);
    ForkedJvm.Result agent = ForkedJvm.run(
        List.of(ForkedJvm.agentArg("executor=opencl,min.length=0,report=" + report)), DEMO,
        Map.of("OCL_ICD_VENDORS", vendors.toString(), "OCL_ICD_FILENAMES", ""));
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertEquals(1, agent.stderr().lines().filter(l -> l.contains("executor=opencl")).count(), agent::describe);
    LoopReport r = LoopReport.read(report);
    assertTrue(r.devices().isEmpty(), "devices reported without any OpenCL platform");
    assertTrue(r.loops().stream().anyMatch(l -> "jvm".equals(l.executor()) && l.offloadedRuns() > 0), agent::describe);
    assertTrue(r.loops().stream().noneMatch(l -> "opencl".equals(l.executor())), agent::describe);
  }
}
