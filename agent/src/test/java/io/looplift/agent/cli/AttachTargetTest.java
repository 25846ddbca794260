package io.looplift.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the CLI learns about a target before the attach API signals it; status files under a fake /proc. */
class AttachTargetTest {
  @TempDir Path proc;
  private final String self = Long.toString(ProcessHandle.current().pid());

  private Optional<String> withStatus(String state, String sigCgt) throws Exception {
    Path dir = Files.createDirectories(proc.resolve(self));
    Files.writeString(dir.resolve("status"), "Name:\tjava\nState:\t" + state + "\nSigBlk:\t0000000000000000\n"
        + "SigIgn:\t0000000000000002\nSigCgt:\t" + sigCgt + "\n");
    return AttachTarget.problem(self, proc);
  }

  @Test
  void aRunningJvmIsFine() throws Exception {
    // What a JDK 17 JVM shows: SIGQUIT (bit 2) among the caught signals.
    assertEquals(Optional.empty(), withStatus("S (sleeping)", "0000000101005ccd"));
  }

  @Test
  void aProcessThatDoesNotHandleSigquitIsNotSignalled() throws Exception {
    String problem = withStatus("S (sleeping)", "0000000101005cc9").orElseThrow();
    assertTrue(problem.startsWith("process " + self + " is not a JVM that can be attached to: it does not handle"
        + " SIGQUIT"), problem);
    assertTrue(problem.endsWith(Cli.LIST_HINT), problem);
  }

  @Test
  void aZombieIsGone() throws Exception {
    assertEquals(Optional.of(AttachTarget.gone(self)), withStatus("Z (zombie)", "0000000000000000"));
  }

  @Test
  void aProcessThatExitedIsGone() throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
        .redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor();
    String pid = Long.toString(p.pid());
    assertEquals(Optional.of("JVM " + pid + " is not running (no live process has that PID); " + Cli.LIST_HINT),
        AttachTarget.problem(pid, proc));
  }

  @Test
  void withoutProcStatusOnlyLivenessIsChecked() {
    assertEquals(Optional.empty(), AttachTarget.problem(self, proc));
  }
}
