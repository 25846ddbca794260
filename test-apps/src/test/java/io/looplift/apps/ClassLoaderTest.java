package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.apps.ProgramCatalog.Expectation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Classes of a loader that does not delegate to the application class loader are offloaded too, and the
 * loader can still be garbage-collected afterwards: {@link IsolatedLauncher} runs {@link LoaderGuest} in a
 * {@code URLClassLoader} whose parent is the platform loader, then waits for that loader to be collected.
 */
class ClassLoaderTest {
  @TempDir Path tmp;

  @Test
  void isolatedLoaderIsOffloadedAndCollected() throws Exception {
    ForkedJvm.Result plain = ForkedJvm.plain(ProgramCatalog.ISOLATED_LAUNCHER.mainClass());
    assertEquals(0, plain.exitCode(), plain::describe);
    List<String> plainLines = plain.stdout().lines().toList();
    assertTrue(plainLines.contains("isolated true"), () -> "the guest was not loaded by its own loader: " + plainLines);
    assertTrue(plainLines.contains("collected"), () -> "even without the agent the loader was not collected: " + plainLines);

    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("min.length=0,report=" + report)),
        ProgramCatalog.ISOLATED_LAUNCHER.mainClass());
    List<String> agentLines = agent.stdout().lines().toList();
    assertTrue(agentLines.contains("collected"),
        () -> "the agent keeps the isolated class loader alive: " + agentLines + "\n" + agent.describe());
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);

    assertTrue(Files.isRegularFile(report), () -> "the agent wrote no report\n" + agent.describe());
    LoopReport loops = LoopReport.read(report);
    for (Expectation e : ProgramCatalog.ISOLATED_LAUNCHER.expectations()) {
      String problem = loops.check(e, null);
      assertEquals(null, problem, () -> problem + "\nreport loops: " + loops.loops());
    }
  }
}
