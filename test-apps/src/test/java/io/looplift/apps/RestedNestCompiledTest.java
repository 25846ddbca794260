package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nest whose selection settled on its original bytecode rests: once the choice read from the store is made,
 * C2 compiles the nest's method without the calls of the path that offers its runs ({@code submit}), which
 * slowed ojAlgo's matrix product by a third when every run was offered and declined. Two runs of
 * {@code ColumnProducts} with the same {@code cache.dir}, on one processor and without OpenCL, so that the
 * original loop is the only sensible choice; the second's HotSpot log, with C2 alone compiling, shows the last
 * compilation of the nest's method.
 */
class RestedNestCompiledTest {
  private static final String PROGRAM = "io.looplift.apps.ColumnProducts";
  private static final String METHOD = PROGRAM + "::addMxC";
  private static final List<String> ARGS = List.of("200", "200");
  private static final Pattern SUBMIT = Pattern.compile("io\\.looplift\\.bridge\\.LoopBridge::submit");
  /** A {@code -XX:+PrintCompilation} line: the uptime, the compile id, then its flags and the method. */
  private static final Pattern COMPILATION = Pattern.compile("^\\s*\\d+\\s+\\d+\\s");

  @TempDir Path tmp;

  @Test
  void aNestKeptAsBytecodeIsCompiledWithoutTheCallsThatOfferItsRuns() throws IOException {
    Map<String, String> noOpenCl = Map.of("OCL_ICD_VENDORS", Files.createDirectory(tmp.resolve("no-vendors"))
        .toString(), "OCL_ICD_FILENAMES", "");
    String options = "cache.dir=" + tmp.resolve("cache") + ",log=info";
    ForkedJvm.Result plain = run(List.of(), noOpenCl);
    ForkedJvm.Result first = run(List.of("-XX:ActiveProcessorCount=1", ForkedJvm.agentArg(options)), noOpenCl);
    List<String> logged = new ArrayList<>(List.of("-XX:ActiveProcessorCount=1", "-XX:+UnlockDiagnosticVMOptions",
        "-XX:-TieredCompilation", "-XX:-DisplayVMOutput", "-XX:+LogVMOutput",
        "-XX:LogFile=" + tmp.resolve("second.log"), "-XX:+PrintCompilation", "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=PrintInlining," + METHOD, ForkedJvm.agentArg(options)));
    ForkedJvm.Result second = run(logged, noOpenCl);
    assertEquals(0, plain.exitCode(), plain::describe);
    assertEquals(plain.stdout(), first.stdout(), first::describe);
    assertEquals(plain.stdout(), second.stdout(), second::describe);
    assertTrue(second.stderr().lines().anyMatch(l -> l.contains("ColumnProducts.addMxC")
        && l.contains("persisted") && l.contains("from now on, unasked")),
        () -> "the second run did not rest the nest on the first run's choice:\n" + second.describe());

    List<String> log = Files.readAllLines(tmp.resolve("second.log"), StandardCharsets.ISO_8859_1);
    List<String> last = lastCompilation(log);
    assertFalse(last.isEmpty(), () -> METHOD + " not compiled:\n" + String.join("\n", log));
    assertFalse(last.stream().anyMatch(l -> SUBMIT.matcher(l).find()),
        () -> "C2 compiled submit into the resting nest:\n" + String.join("\n", last));
  }

  /** {@link #PROGRAM} with {@link #ARGS}, one JVM at a time: a second would take the processor measured. */
  private static ForkedJvm.Result run(List<String> jvmOptions, Map<String, String> env) {
    try (ForkedJvm.Running r = ForkedJvm.start(List.of(), jvmOptions, PROGRAM, ARGS, env)) {
      return r.await();
    }
  }

  /**
   * The lines of the last whole-method compilation of {@link #METHOD} (not an on-stack replacement, marked
   * {@code %}): its {@code -XX:+PrintCompilation} line and the inlining lines up to the next compilation's.
   */
  private static List<String> lastCompilation(List<String> log) {
    int start = -1;
    for (int i = 0; i < log.size(); i++) {
      String l = log.get(i);
      if (l.contains(METHOD + " (") && !l.contains(" % ") && !l.contains("made not entrant")) start = i;
    }
    if (start < 0) return List.of();
    List<String> lines = new ArrayList<>(List.of(log.get(start)));
    for (int i = start + 1; i < log.size() && !COMPILATION.matcher(log.get(i)).find(); i++) lines.add(log.get(i));
    return lines;
  }
}
