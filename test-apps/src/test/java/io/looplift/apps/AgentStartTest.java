package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the agent does as the JVM starts leaves a program's start as it was: a program that installs its own
 * {@code java.util.logging} manager in {@code main} still gets it, although the agent added its compiler
 * directive (which keeps its class-loading code from C2) in {@code premain}, before any class of the program
 * loaded.
 */
class AgentStartTest {
  private static final String PROGRAM = "io.looplift.apps.OwnLogManager";

  @Test
  void theDirectiveIsAddedAtStartAndTheProgramsOwnLogManagerIsKept() {
    ForkedJvm.Result plain = ForkedJvm.plain(PROGRAM);
    assertTrue(plain.stdout().startsWith(PROGRAM + "$Manager"), plain::describe);
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("log=debug")), PROGRAM);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    String stderr = agent.stderr();
    int directive = stderr.indexOf("looplift: compiler directive for the transformer:");
    assertTrue(directive >= 0, agent::describe);
    assertFalse(stderr.contains("could not add the compiler directive"), agent::describe);
    // Added before the program's first class was examined, not a second later through the MBean server.
    int rewrite = stderr.indexOf("looplift: rewrote " + PROGRAM);
    assertTrue(rewrite > directive, agent::describe);
  }
}
