package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AbstractCalls}: a loop calling an abstract method is rejected while its class loads (no subclass is
 * loaded yet), rewritten again once one is, and then offloaded with that subclass's method inlined; an object
 * of another subclass runs the original loop. The output is the program's, and the report has the loop once.
 */
class AbstractCallsTest {
  private static final String PROGRAM = "io.looplift.apps.AbstractCalls";

  @TempDir Path tmp;

  @Test
  void theLoopRunsOffloadedOnceASubclassHasLoadedAndItsOutputIsUnchanged() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0,executor=jvm,report=" + report)),
        PROGRAM);
    assertEquals(ForkedJvm.plain(PROGRAM).stdout(), agent.stdout(), agent::describe);
    List<LoopReport.Loop> render = LoopReport.read(report).loops().stream()
        .filter(l -> l.method().equals("render")).toList();
    assertEquals(1, render.size(), render::toString);
    LoopReport.Loop loop = render.get(0);
    assertEquals("offloaded", loop.status(), loop::toString);
    assertTrue(loop.offloadedRuns() > 0, loop::toString);
    assertTrue(loop.fallbackRuns() > 0, "the Wave's launch ran the original loop: " + loop);
  }
}
