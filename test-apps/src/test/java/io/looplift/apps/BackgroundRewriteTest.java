package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link VectorOpsUser}: {@link VectorOps}, a class with eighteen methods with loops, loads as it is, is
 * rewritten off its loading thread and installed by retransformation while the program runs; its loops then
 * run offloaded, and the output is the program's.
 */
class BackgroundRewriteTest {
  private static final String PROGRAM = "io.looplift.apps.VectorOpsUser";

  @TempDir Path tmp;

  @Test
  void aClassWithManyLoopsIsRewrittenWhileTheProgramRunsAndItsOutputIsUnchanged() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0,executor=jvm,report=" + report)),
        PROGRAM);
    assertEquals(ForkedJvm.plain(PROGRAM).stdout(), agent.stdout(), agent::describe);
    List<LoopReport.Loop> ops = LoopReport.read(report).loops().stream()
        .filter(l -> l.className().endsWith("VectorOps")).toList();
    assertEquals(18, ops.size(), ops::toString);
    for (LoopReport.Loop loop : ops) {
      assertEquals("offloaded", loop.status(), loop::toString);
      assertTrue(loop.offloadedRuns() > 0, loop::toString);
    }
    Map<?, ?> transform = (Map<?, ?>) ((Map<?, ?>) Json.parse(Files.readString(report, StandardCharsets.UTF_8)))
        .get("transform");
    Map<?, ?> background = (Map<?, ?>) transform.get("background");
    assertEquals(1L, ((Number) background.get("classes")).longValue(), transform::toString);
  }
}
