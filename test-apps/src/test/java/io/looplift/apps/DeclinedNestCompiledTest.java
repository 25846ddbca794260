package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nest that only ever runs too short to offload is compiled by C2 without the calls of its preamble's path
 * to the pipeline (the class checks, {@code submit}). Each call on a path that goes back into the original
 * loop made C2 keep the nest's arrays on the stack: ojAlgo's matrix product, declined, ran 1.4 times as long
 * as without the agent. Read from {@code -XX:+PrintInlining} of the nest's method in forked JVMs that compile
 * with C2 alone (so that every inlining line is C2's), in HotSpot's log file, apart from the program's stdout;
 * a JVM whose nest runs long shows that the same log does name those calls when C2 compiles them.
 */
class DeclinedNestCompiledTest {
  private static final String PROGRAM = "io.looplift.apps.ColumnProducts";
  private static final String METHOD = PROGRAM + "::addMxC";
  private static final List<String> ARGS = List.of("200", "60");
  private static final Pattern PIPELINE_CALL =
      Pattern.compile("io\\.looplift\\.bridge\\.LoopBridge::(submit|initialized)");

  @TempDir Path tmp;

  @Test
  void aNestThatRunsShortIsCompiledWithoutThePipelinesCalls() {
    ForkedJvm.Result plain;
    ForkedJvm.Result declined;
    ForkedJvm.Result offered;
    try (ForkedJvm.Running p = ForkedJvm.start(List.of(), List.of(), PROGRAM, ARGS, Map.of());
        ForkedJvm.Running d = ForkedJvm.start(List.of(), withAgent("declined", "min.length=1000000000"), PROGRAM,
            ARGS, Map.of())) {
      plain = p.await();
      declined = d.await();
    }
    try (ForkedJvm.Running o = ForkedJvm.start(List.of(), withAgent("offered", "min.length=1,executor=jvm"), PROGRAM,
        ARGS, Map.of())) {
      offered = o.await();
    }
    assertEquals(0, plain.exitCode(), plain::describe);
    assertEquals(plain.stdout(), declined.stdout(), declined::describe);
    assertEquals(plain.stdout(), offered.stdout(), offered::describe);

    List<String> offeredLog = log("offered");
    assertTrue(compiled(offeredLog), () -> METHOD + " not compiled when offered:\n" + String.join("\n", offeredLog));
    assertTrue(offeredLog.stream().anyMatch(l -> PIPELINE_CALL.matcher(l).find()),
        () -> "C2 compiled no call of the pipeline into a nest that ran long:\n" + String.join("\n", offeredLog));

    List<String> declinedLog = log("declined");
    assertTrue(compiled(declinedLog), () -> METHOD + " not compiled when declined:\n" + String.join("\n", declinedLog));
    assertFalse(declinedLog.stream().anyMatch(l -> PIPELINE_CALL.matcher(l).find()),
        () -> "C2 compiled the pipeline's calls into a nest that only ran short:\n" + declinedLog.stream()
            .filter(l -> l.contains(METHOD) || PIPELINE_CALL.matcher(l).find()).collect(Collectors.joining("\n")));
  }

  /** The agent with {@code agentOptions}, and C2's log of {@link #METHOD} written to {@code <name>.log}. */
  private List<String> withAgent(String name, String agentOptions) {
    List<String> options = new ArrayList<>(C2InliningLog.options(tmp.resolve(name + ".log"), METHOD));
    options.add(ForkedJvm.agentArg(agentOptions));
    return options;
  }

  private List<String> log(String name) {
    return C2InliningLog.read(tmp.resolve(name + ".log"));
  }

  private static boolean compiled(List<String> log) {
    return C2InliningLog.compiled(log, METHOD);
  }
}
