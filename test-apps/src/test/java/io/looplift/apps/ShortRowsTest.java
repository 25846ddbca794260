package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ShortRows} with the default options: its short loops, recognized and rewritten as the classes load,
 * never run offloaded, and once they have run short often enough the agent puts them back as they were,
 * without redefining the class (the short map inside a loop over rows, unless the selection offloads that nest); its
 * floating-point sum, which no executor could split, is rejected as the class loads.
 * The report says so, and the output is the program's.
 */
class ShortRowsTest {
  private static final String PROGRAM = "io.looplift.apps.ShortRows";
  private static final String PUT_BACK = "without ever being offloaded, so it was put back as it was";

  @TempDir Path tmp;

  @Test
  void loopsThatOnlyRunShortArePutBackAsTheyWereAndTheOutputIsUnchanged() throws IOException {
    Path report = tmp.resolve("report.json");
    Path redefined = tmp.resolve("redefined.log");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("report=" + report),
        "-Xlog:redefine+class+load=info:file=" + redefined), PROGRAM);
    assertEquals(ForkedJvm.plain(PROGRAM).stdout(), agent.stdout(), agent::describe);
    // Put back by their switches, not by redefining the class: main, running all along, would have kept its
    // old code, which HotSpot never compiles again.
    String redefinitions = Files.exists(redefined) ? Files.readString(redefined) : "";
    assertFalse(redefinitions.contains("name=" + PROGRAM + ","), redefinitions);
    List<LoopReport.Loop> loops = LoopReport.read(report).loops().stream()
        .filter(l -> l.className().equals(PROGRAM)).toList();
    // The measured selection may offload main's loop over the rows, scale's loop inlined: scale then runs on
    // its own only in that nest's runs as bytecode, which need not add up to a put-back within the run.
    boolean rowsOffloaded = loops.stream().anyMatch(l -> l.method().equals("main") && l.kind().equals("nest")
        && l.offloadedRuns() > 0);
    for (String method : List.of("smooth", "scale")) {
      List<LoopReport.Loop> of = loops.stream().filter(l -> l.method().equals(method)).toList();
      if (method.equals("smooth") || !rowsOffloaded) {
        assertTrue(of.stream().anyMatch(l -> l.status().equals("rejected") && l.reason().contains(PUT_BACK)),
            method + ": " + loops);
      }
      assertTrue(of.stream().allMatch(l -> l.offloadedRuns() == 0), method + ": " + loops);
    }
    LoopReport.Loop total = loops.stream().filter(l -> l.method().equals("total")).findFirst().orElseThrow();
    assertEquals("rejected", total.status(), total::toString);
    assertTrue(total.reason().startsWith("runs in Java's order whole"), total::toString);
  }
}
