package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.apps.ProgramCatalog.Program;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every program on a machine without OpenCL, as users' machines are: inside a private mount namespace, every
 * libOpenCL library the dynamic linker knows is replaced by {@code /dev/null} and the ICD vendor directory
 * is empty ({@code ../shared/checks/no-opencl.sh} does the same). With default options and with
 * {@code executor=opencl} the program prints exactly what it prints without the agent, nothing of OpenCL
 * reaches stdout, and LoopLift starts no host process and says once on stderr why OpenCL is not used.
 *
 * <p>The namespace needs root or unprivileged user namespaces; where neither works the tests are skipped,
 * and fail under the CI switch ({@link OpenClRequirement}).
 */
class NoOpenClTest {
  /** Hides OpenCL, then runs the command it is given. */
  private static final String HIDE = "for f in $(ldconfig -p | awk '/libOpenCL\\.so/{print $NF}' | sort -u); do "
      + "mount --bind /dev/null \"$(readlink -f \"$f\")\"; done; "
      + "if [ -d /etc/OpenCL/vendors ]; then mount -t tmpfs tmpfs /etc/OpenCL/vendors; fi; exec \"$@\"";
  private static final List<String> WRAPPER = List.of("unshare", isRoot() ? "-m" : "-rm", "bash", "-c", HIDE, "_");
  private static final String WORKS = namespaceProblem();

  @TempDir Path tmp;

  static Stream<Arguments> programsAndOptions() {
    return ProgramCatalog.ALL.stream().flatMap(p -> Stream.of(Arguments.of(p, ""), Arguments.of(p, "executor=opencl,")));
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Null when the namespace can be made here, else why not. */
  private static String namespaceProblem() {
    try {
      Process p = new ProcessBuilder(Stream.concat(WRAPPER.stream(), Stream.of("true")).toList()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(30, TimeUnit.SECONDS)) return "unshare did not finish";
      return p.exitValue() == 0 ? null : "cannot hide OpenCL in a mount namespace here: " + out.trim();
    } catch (IOException e) {
      return "cannot run unshare: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  @ParameterizedTest(name = "{0} options \"{1}\"")
  @MethodSource("programsAndOptions")
  void sameOutputAndNoTraceOfOpenCl(Program program, String options) throws IOException {
    OpenClRequirement.require(WORKS == null, WORKS);
    ForkedJvm.Result plain = ForkedJvm.plain(program.mainClass());
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent;
    try (ForkedJvm.Running r = ForkedJvm.start(WRAPPER, List.of(ForkedJvm.agentArg(options + "log=debug,report=" + report)),
        program.mainClass(), List.of(), Map.of())) {
      agent = r.await();
    }
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    assertFalse(agent.stderr().contains("started the OpenCL host process"), agent::describe);
    assertTrue(LoopReport.read(report).devices().isEmpty(), agent::describe);
    if (!options.isEmpty()) {
      List<String> why = agent.stderr().lines().filter(l -> l.startsWith("looplift: executor=opencl: ")).toList();
      assertEquals(1, why.size(), agent::describe);
      assertTrue(why.get(0).contains("no OpenCL ICD loader") && why.get(0).contains("using jvm"), why.get(0));
    }
  }
}
