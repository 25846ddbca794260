package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.apps.ProgramCatalog.Program;
import io.looplift.apps.wrongkernel.OffByOneExecutorProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Verify mode end to end. Under {@code verify=all} the programs of {@link ProgramCatalog}, and
 * {@link ProgramCatalog#SMOKE}, print exactly what they print without the agent and report launches checked
 * against the reference executor and no mismatch, on the {@code jvm} executor and on OpenCL. And a broken
 * executor injected into a copy of the agent jar is caught: each of its kernels is reported with the first
 * element that differs, and the program's output stays the same.
 *
 * <p>Every checked launch also runs on the reference interpreter, so a program costs here about what it
 * costs under {@code executor=reference}: the three longest (OptionPricing, ManyThreads, NestWork) take some 2
 * to 4 minutes each on a busy 2-core machine, as long as all the others together.
 */
class VerifyModeTest {
  private static final String SERVICES = "META-INF/services/io.looplift.executors.ExecutorProvider";
  /** The log line of a mismatch, with the first value that differed and both values. */
  private static final Pattern MISMATCH = Pattern.compile("looplift: verify: kernel (\\S+) on (\\S+) differs from the"
      + " reference executor \\(loops [^)]+\\): first at (array \\d+(?:\\[\\d+\\])+|reduction \\d+), expected (.+?),"
      + " got (.+?); the program gets the reference result, and the kernel no longer runs on \\2");

  /**
   * How long one program may run under {@code verify=all}: every launch also runs on the reference interpreter,
   * a few microseconds per iteration, so the longest program (OptionPricing, 33 launches) needs some 200 s of
   * CPU time, and more than twice that in wall time on a busy 2-core machine.
   */
  private static final long VERIFY_TIMEOUT_SECONDS = 1200;

  @TempDir Path tmp;

  static Stream<Program> programs() {
    return Stream.concat(ProgramCatalog.ALL.stream(), Stream.of(ProgramCatalog.SMOKE));
  }

  /** The programs whose plain float and integer maps run on OpenCL wherever a device exists (see EndToEndTest). */
  private static final List<Program> MAPS_ON_OPENCL = List.of(ProgramCatalog.DEMO, ProgramCatalog.SIGNAL_CHAIN,
      ProgramCatalog.SMOKE);

  /** What a run under verify mode reported. */
  private record Verified(LoopReport loops, Map<?, ?> verify) {}

  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void onTheJvmExecutorEveryCheckedLaunchMatchesTheReference(Program program) throws Exception {
    Verified run = runVerified(program, "");
    assertEquals("all", run.verify().get("mode"));
    assertTrue(kernels(run.verify()).stream().allMatch(k -> "jvm".equals(k.get("executor"))), run.verify()::toString);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("programs")
  void onOpenClEveryCheckedLaunchMatchesTheReference(Program program) throws Exception {
    Verified run = runVerified(program, "executor=opencl,");
    OpenClRequirement.require(!run.loops().devices().isEmpty(), "the report lists no OpenCL device");
    if (MAPS_ON_OPENCL.contains(program)) {
      assertTrue(kernels(run.verify()).stream().anyMatch(k -> "opencl".equals(k.get("executor"))),
          () -> "no launch was checked on OpenCL: " + run.verify());
    }
  }

  /**
   * An executor that spoils one value of every launch, {@code executor=offbyone}, which exists only in a copy
   * of the agent jar this test builds: each kernel is caught at its first launch, reported with the first
   * element that differs, and moved to the {@code jvm} executor, and the program prints what it always does.
   */
  @Test
  void aWrongKernelIsCaughtReportedAndTheProgramStillPrintsTheRightResults() throws Exception {
    Path jar = agentWithOffByOneExecutor();
    Program program = ProgramCatalog.DEMO;
    ForkedJvm.Result plain = ForkedJvm.plain(program.mainClass());
    Path report = tmp.resolve("wrong.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(agentArg(jar, "executor=" + OffByOneExecutorProvider.NAME
        + ",verify=all,min.length=0,report=" + report)), program.mainClass(), VERIFY_TIMEOUT_SECONDS);
    assertEquals(plain.exitCode(), agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), () -> "the reference's results must reach the program\n" + agent.describe());

    List<String> caught = new ArrayList<>();
    for (String line : agent.stderr().split("\n")) {
      if (!line.startsWith("looplift: verify:")) continue;
      Matcher m = MISMATCH.matcher(line);
      assertTrue(m.matches(), line);
      assertEquals(OffByOneExecutorProvider.NAME, m.group(2), line);
      // The executor spoils the first iteration's store, or the first reduction value.
      assertTrue(m.group(3).matches("array \\d+\\[0\\]|reduction 0"), line);
      assertNotEquals(m.group(4), m.group(5), line);
      caught.add(m.group(1));
    }
    assertFalse(caught.isEmpty(), () -> "no mismatch logged\n" + agent.describe());

    Map<?, ?> verify = verifyOf(report);
    List<Map<?, ?>> wrong = kernels(verify).stream()
        .filter(k -> OffByOneExecutorProvider.NAME.equals(k.get("executor"))).toList();
    assertEquals(caught.size(), wrong.size(), verify::toString);
    for (Map<?, ?> k : wrong) {
      assertTrue(caught.contains(k.get("id")), k::toString);
      // Caught at its first launch, and never run there again.
      assertEquals(1L, k.get("checked"), k::toString);
      assertEquals(1L, k.get("mismatches"), k::toString);
      assertEquals(1L, k.get("worst"), () -> "one ulp, or one, off: " + k);
    }
    assertEquals((long) caught.size(), verify.get("mismatches"), verify::toString);
    // The kernels moved to the jvm executor, where they are checked and right.
    assertTrue(kernels(verify).stream().anyMatch(k -> "jvm".equals(k.get("executor")) && caught.contains(k.get("id"))
        && (long) k.get("checked") > 0 && (long) k.get("mismatches") == 0), verify::toString);
  }

  /**
   * Runs {@code program} plainly and under the agent with {@code options} (each ending in a comma) plus
   * {@code verify=all,min.length=0}; requires the same exit code and stdout, the report entries the catalog
   * expects, launches checked and no mismatch.
   */
  private Verified runVerified(Program program, String options) throws IOException {
    ForkedJvm.Result plain = ForkedJvm.plain(program.mainClass());
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of(ForkedJvm.agentArg(options + "verify=all,min.length=0,report=" + report)),
        program.mainClass(), VERIFY_TIMEOUT_SECONDS);
    assertEquals(plain.exitCode(), agent.exitCode(), () -> "exit code changed under verify=all\n" + agent.describe());
    assertEquals(plain.stdout(), agent.stdout(), () -> "stdout changed under verify=all\n" + agent.describe());
    assertFalse(agent.stderr().contains("looplift: verify:"), agent::describe);
    LoopReport loops = LoopReport.read(report);
    for (ProgramCatalog.Expectation e : program.expectations()) {
      String problem = loops.check(e, null);
      assertTrue(problem == null, problem);
    }
    Map<?, ?> verify = verifyOf(report);
    assertTrue((long) verify.get("checked") > 0, () -> "no launch checked: " + verify);
    assertEquals(0L, verify.get("mismatches"), verify::toString);
    return new Verified(loops, verify);
  }

  private static String agentArg(Path jar, String options) {
    return "-javaagent:" + jar + "=" + options;
  }

  private static Map<?, ?> verifyOf(Path report) throws IOException {
    assertTrue(Files.isRegularFile(report), "the agent wrote no report");
    Map<?, ?> top = (Map<?, ?>) Json.parse(Files.readString(report, StandardCharsets.UTF_8));
    assertTrue(top.get("verify") instanceof Map<?, ?>, () -> "no verify object in " + top);
    return (Map<?, ?>) top.get("verify");
  }

  private static List<Map<?, ?>> kernels(Map<?, ?> verify) {
    List<Map<?, ?>> kernels = new ArrayList<>();
    for (Object k : (List<?>) verify.get("kernels")) kernels.add((Map<?, ?>) k);
    return kernels;
  }

  /**
   * A copy of the agent jar whose nested implementation jar also holds this test's
   * {@code io.looplift.apps.wrongkernel} classes and names their provider in its service file: the agent's
   * own way of finding executors, so the shipped agent needs no switch that breaks results.
   */
  private Path agentWithOffByOneExecutor() throws IOException, URISyntaxException {
    Path jar = tmp.resolve("looplift-agent-offbyone.jar");
    try (ZipFile agent = new ZipFile(ForkedJvm.agentJar().toFile());
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar))) {
      for (Enumeration<? extends ZipEntry> e = agent.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        out.putNextEntry(new ZipEntry(entry.getName()));
        try (InputStream in = agent.getInputStream(entry)) {
          if (entry.getName().equals("looplift-impl.jar")) {
            out.write(implWithOffByOneExecutor(in));
          } else {
            in.transferTo(out);
          }
        }
        out.closeEntry();
      }
    }
    return jar;
  }

  private static byte[] implWithOffByOneExecutor(InputStream impl) throws IOException, URISyntaxException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipInputStream in = new ZipInputStream(impl); ZipOutputStream out = new ZipOutputStream(bytes)) {
      for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
        out.putNextEntry(new ZipEntry(entry.getName()));
        in.transferTo(out);
        if (entry.getName().equals(SERVICES)) {
          out.write(("\n" + OffByOneExecutorProvider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        out.closeEntry();
      }
      String dir = OffByOneExecutorProvider.class.getPackageName().replace('.', '/') + "/";
      Path classes = Path.of(OffByOneExecutorProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .resolve(dir);
      try (Stream<Path> files = Files.list(classes)) {
        for (Path f : files.toList()) {
          out.putNextEntry(new ZipEntry(dir + f.getFileName()));
          Files.copy(f, out);
          out.closeEntry();
        }
      }
    }
    return bytes.toByteArray();
  }
}
