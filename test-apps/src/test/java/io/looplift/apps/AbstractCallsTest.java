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
 * of another subclass runs the original loop. The class of {@code main}, which runs throughout, is left as it
 * is: the stack frame {@code main} prints keeps its file and line, and the report says its loop waits for a
 * moment none of its class's methods runs. The output is the program's, and the report has each loop once.
 */
class AbstractCallsTest {
  private static final String PROGRAM = "io.looplift.apps.AbstractCalls";

  @TempDir Path tmp;

  @Test
  void theLoopRunsOffloadedOnceASubclassHasLoadedAndItsOutputIsUnchanged() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0,executor=jvm,report=" + report)),
        PROGRAM);
    String plain = ForkedJvm.plain(PROGRAM).stdout();
    assertTrue(plain.contains("at " + PROGRAM + ".main(AbstractCalls.java:"), plain);
    assertEquals(plain, agent.stdout(), agent::describe);
    List<LoopReport.Loop> loops = LoopReport.read(report).loops();
    LoopReport.Loop render = only(loops, "render");
    assertEquals("offloaded", render.status(), render::toString);
    assertTrue(render.offloadedRuns() > 0, render::toString);
    assertTrue(render.fallbackRuns() > 0, "the Wave's launch ran the original loop: " + render);
    LoopReport.Loop rise = loops.stream()
        .filter(l -> l.method().equals("main") && l.reason() != null && l.reason().contains("abstract method"))
        .findFirst().orElseThrow(() -> new AssertionError("no loop of main calling the abstract method: " + loops));
    assertEquals("rejected", rise.status(), rise::toString);
    assertTrue(rise.reason().contains("its class is rewritten again at the first moment none of its methods runs"),
        rise::toString);
  }

  private static LoopReport.Loop only(List<LoopReport.Loop> loops, String method) {
    List<LoopReport.Loop> found = loops.stream().filter(l -> l.method().equals(method)).toList();
    assertEquals(1, found.size(), found::toString);
    return found.get(0);
  }
}
