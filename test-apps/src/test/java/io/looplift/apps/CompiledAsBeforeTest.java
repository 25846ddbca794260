package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A method whose loop runs offloaded is compiled by HotSpot's optimizing compiler as it is without the agent.
 * HotSpot compiles a method called a few times for the back edges of its loop; when that loop runs elsewhere,
 * the rest of the method (here the {@code a.clone()} of Commons Math's {@code ebeMultiply} shape) would stay
 * in the interpreter. Read from {@code -XX:+PrintCompilation}, kept apart from the program's stdout in HotSpot's
 * log file.
 */
class CompiledAsBeforeTest {
  private static final String PROGRAM = ProgramCatalog.FRESH_OUTPUTS.mainClass();
  private static final String METHOD = PROGRAM + "::ebeMultiply";
  private static final int ROUNDS = 200;
  private static final List<String> ARGS = List.of(String.valueOf(1 << 18), String.valueOf(ROUNDS));

  @TempDir Path tmp;

  @Test
  void aMethodWhoseLoopRunsOffloadedIsCompiledByC2() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result plain;
    ForkedJvm.Result agent;
    try (ForkedJvm.Running p = ForkedJvm.start(List.of(), printCompilation("plain"), PROGRAM, ARGS, Map.of());
        ForkedJvm.Running a = ForkedJvm.start(List.of(), withAgent(printCompilation("agent"), "executor=jvm,report="
            + report), PROGRAM, ARGS, Map.of())) {
      plain = p.await();
      agent = a.await();
    }
    assertEquals(0, agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    LoopReport.Loop loop = LoopReport.read(report).loops().stream()
        .filter(l -> l.method().equals("ebeMultiply")).findFirst().orElseThrow();
    assertEquals(ROUNDS, loop.offloadedRuns(), loop::toString);
    List<String> withoutAgent = Files.readAllLines(tmp.resolve("plain.log"), StandardCharsets.ISO_8859_1);
    assertTrue(compiledByC2(withoutAgent), "not compiled even without the agent:\n" + String.join("\n", withoutAgent));
    List<String> withAgent = Files.readAllLines(tmp.resolve("agent.log"), StandardCharsets.ISO_8859_1);
    assertTrue(compiledByC2(withAgent), () -> METHOD + " never reached C2 with its loop offloaded:\n"
        + withAgent.stream().filter(l -> l.contains(METHOD)).collect(Collectors.joining("\n")));
  }

  /** HotSpot options that write what {@code -XX:+PrintCompilation} prints to {@code <name>.log}, not to stdout. */
  private List<String> printCompilation(String name) {
    return List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-DisplayVMOutput", "-XX:+LogVMOutput",
        "-XX:LogFile=" + tmp.resolve(name + ".log"), "-XX:+PrintCompilation");
  }

  private static List<String> withAgent(List<String> options, String agentOptions) {
    List<String> all = new ArrayList<>(options);
    all.add(ForkedJvm.agentArg(agentOptions));
    return all;
  }

  /**
   * Whether a line says {@link #METHOD} was compiled at tier 4 as a whole method, not only its loop (on-stack
   * replacement, flagged {@code %}): {@code <time> <id> <flags> 4 <method> (<size> bytes)}.
   */
  private static boolean compiledByC2(List<String> log) {
    return log.stream().map(l -> l.trim().split("\\s+")).anyMatch(f -> {
      int name = Arrays.asList(f).indexOf(METHOD);
      return name > 2 && f[name - 1].equals("4") && !Arrays.asList(f).subList(2, name).contains("%")
          && f.length == name + 3 && f[name + 1].startsWith("(");
    });
  }
}
