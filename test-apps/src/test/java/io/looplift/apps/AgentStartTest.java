package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the agent does as the JVM starts and as the pipeline opens leaves a program's start as it was: a
 * program that installs its own {@code java.util.logging} manager in {@code main} still gets it, although the
 * agent added its compiler directive (which keeps its class-loading code from C2) in {@code premain}, before
 * any class of the program loaded, and so does one that installs it after its loops ran offloaded; and the
 * agent starts no MBean server, but registers its MBean in the platform's once something else has started it.
 */
class AgentStartTest {
  private static final String OWN_LOG_MANAGER = "io.looplift.apps.OwnLogManager";
  private static final String PLATFORM_MBEANS = "io.looplift.apps.PlatformMBeans";

  @Test
  void theDirectiveIsAddedAtStartAndTheProgramsOwnLogManagerIsKept() {
    ForkedJvm.Result plain = ForkedJvm.plain(OWN_LOG_MANAGER);
    assertTrue(plain.stdout().startsWith(OWN_LOG_MANAGER + "$Manager"), plain::describe);
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg("log=debug")), OWN_LOG_MANAGER);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    String stderr = agent.stderr();
    int directive = stderr.indexOf("looplift: compiler directive for the transformer:");
    assertTrue(directive >= 0, agent::describe);
    assertFalse(stderr.contains("could not add the compiler directive"), agent::describe);
    // Added before the program's first class was examined, not later through the MBean server.
    int rewrite = stderr.indexOf("looplift: rewrote " + OWN_LOG_MANAGER);
    assertTrue(rewrite > directive, agent::describe);
  }

  @Test
  void aProgramThatInstallsItsLogManagerAfterItsLoopsRanStillGetsIt() {
    ForkedJvm.Result plain = run(OWN_LOG_MANAGER, List.of(), "late");
    assertTrue(plain.stdout().startsWith(OWN_LOG_MANAGER + "$Manager"), plain::describe);
    // min.length=0: the loops run through the pipeline, whose executors and caches open before the manager is set.
    ForkedJvm.Result agent = run(OWN_LOG_MANAGER, List.of(ForkedJvm.agentArg("min.length=0,log=info")), "late");
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertTrue(agent.stderr().contains("offloaded io.looplift.apps.OwnLogManager.total"), agent::describe);
  }

  @Test
  void theAgentStartsNoMBeanServer() {
    ForkedJvm.Result plain = run(PLATFORM_MBEANS, List.of(), "look");
    assertTrue(plain.stdout().endsWith("MBean servers running: 0\n"), plain::describe);
    ForkedJvm.Result agent = run(PLATFORM_MBEANS, List.of(ForkedJvm.agentArg("")), "look");
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
  }

  @Test
  void theMBeanIsRegisteredOnceTheProgramStartsThePlatformServer() {
    ForkedJvm.Result agent = run(PLATFORM_MBEANS, List.of(ForkedJvm.agentArg("min.length=0")), "start", "20000");
    Matcher found = Pattern.compile("found io.looplift:type=LoopLift with LoopCount (\\d+)").matcher(agent.stderr());
    assertTrue(found.find(), agent::describe);
    assertTrue(Integer.parseInt(found.group(1)) >= 2, agent::describe); // main's two loops and total's
  }

  private static ForkedJvm.Result run(String mainClass, List<String> jvmOptions, String... args) {
    try (ForkedJvm.Running r = ForkedJvm.start(List.of(), jvmOptions, mainClass, List.of(args), Map.of())) {
      return r.await(ForkedJvm.TIMEOUT_SECONDS);
    }
  }
}
