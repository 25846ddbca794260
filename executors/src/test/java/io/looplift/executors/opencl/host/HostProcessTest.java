package io.looplift.executors.opencl.host;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.ExecutorLog;
import io.looplift.executors.opencl.DeviceInfo;
import io.looplift.executors.Launch;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.DeviceRequirement;
import io.looplift.executors.opencl.OpenClExecutor;
import io.looplift.executors.opencl.OpenClTestSupport;
import io.looplift.executors.opencl.SegmentPool;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program JVM's side of the OpenCL host process against the real host and against hosts that die, hang
 * or answer garbage: each failure gives an {@link ExecutionException} with a clear reason, writes nothing,
 * kills the process, and ends the use of OpenCL with one warning.
 */
class HostProcessTest {
  private static final HostTimeouts SHORT = new HostTimeouts(Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(60));
  /** y = x * 3 + 1 over ints. */
  private static final LoopTemplate TRIPLE = new LoopTemplate(List.of(Type.INT, Type.INT), List.of(), List.of(),
      List.of(new Store(1, Type.INT, Index.I, new Binary(BinaryOp.ADD, new Binary(BinaryOp.MUL,
          new Load(0, Type.INT, Index.I), Const.ofInt(3)), Const.ofInt(1)), Const.TRUE)), List.of());

  @TempDir Path cacheDir;

  /** Collects what the host process logs. */
  private static final class Lines implements ExecutorLog {
    final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    final List<String> debug = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void warn(String line) { warnings.add(line); }

    @Override
    public void debug(String line) { debug.add(line); }
  }

  private static HostProcess fake(Class<?> main, HostTimeouts timeouts, ExecutorLog log) throws IOException {
    return HostProcess.start(HostCommand.of(HostProcessTest.class.getClassLoader(), main.getName()), timeouts, log);
  }

  private static void assertGone(long pid) {
    Optional<ProcessHandle> p = ProcessHandle.of(pid);
    if (p.isEmpty()) return;
    try {
      p.get().onExit().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      fail("process " + pid + " is still alive: " + e);
    }
  }

  private record Failed(Class<?> host, String reason) {}

  @Test
  void aHostThatDoesNotSpeakTheProtocolIsRefusedAndKilled() throws Exception {
    HostTimeouts quick = new HostTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3));
    for (Failed f : List.of(new Failed(FakeHosts.Silent.class, "did not answer within 3 s"),
        new Failed(FakeHosts.Garbage.class, "answered garbage"), new Failed(FakeHosts.Exiting.class, "exited with code 3"),
        new Failed(FakeHosts.OtherProtocol.class, "answered garbage (it speaks protocol 12345678 version 99)"))) {
      Lines log = new Lines();
      HostProcess host = fake(f.host(), quick, log);
      long t0 = System.nanoTime();
      ExecutionException e = assertThrows(ExecutionException.class, () -> host.hello(cacheDir, "test"), f.host().getSimpleName());
      assertTrue(e.getMessage().startsWith("the OpenCL host process ") && e.getMessage().contains(f.reason()), e.getMessage());
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(8), "gave up within its timeout");
      assertFalse(host.usable());
      assertGone(host.pid());
      assertEquals(List.of(), log.warnings, "a start that failed is reported by the caller, not warned about");
      assertThrows(ExecutionException.class, () -> host.open(0), "unusable for good");
    }
  }

  @Test
  void whatTheHostPrintsGoesToTheDebugLogOnly() throws Exception {
    Lines log = new Lines();
    HostProcess host = fake(FakeHosts.Exiting.class, SHORT, log);
    assertThrows(ExecutionException.class, () -> host.hello(cacheDir, "test"));
    assertTrue(log.debug.contains("opencl host: exiting early"), log.debug.toString());
  }

  private static List<String> stable(List<DeviceInfo> devices) {
    return devices.stream().map(d -> d.index() + " " + d.name() + " " + d.kind() + " " + d.vendor() + " " + d.platform()
        + " " + d.computeUnits() + " " + d.openclCVersion() + " " + d.driverVersion() + " " + d.fp64()).toList();
  }

  @Test
  void theRealHostFindsWhatThisJvmFinds() throws Exception {
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, ExecutorLog.NONE);
    try {
      DeviceInventory there = host.hello(cacheDir, "test");
      // Compared without their memory sizes: a CPU device reports what is free at the moment it is asked.
      assertEquals(stable(OpenClTestSupport.discoverHere().devices()), stable(there.devices()));
    } finally {
      host.close();
    }
    assertGone(host.pid());
  }

  /** What the selection counts as a device process working beside another candidate's runs. */
  @Test
  void theProcessorTimeOfARunningHostIsCounted() throws Exception {
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, ExecutorLog.NONE);
    try {
      host.hello(cacheDir, "test");
      long own = ProcessHandle.of(host.pid()).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos)
          .orElse(0L);
      assertTrue(own > 0, "a JVM that started and answered has used the processor");
      assertTrue(HostProcess.cpuNanos() >= own, "counted with the other running hosts");
    } finally {
      host.close();
    }
    assertGone(host.pid());
  }

  /** An executor over a host of its own; skips (or fails under the CI switch) without a device. */
  private OpenClExecutor executor(HostProcess host, SegmentPool pool) throws ExecutionException {
    DeviceInventory inventory = host.hello(cacheDir, "test");
    DeviceRequirement.require(!inventory.isEmpty(), inventory.reason());
    int device = host.open(0);
    return new OpenClExecutor(inventory.devices().get(0), pool == null ? new HostLink(host, device) : new HostLink(host, device, pool));
  }

  private static int[] ramp(int n) {
    int[] x = new int[n];
    for (int i = 0; i < n; i++) x[i] = i - n / 2;
    return x;
  }

  private static void assertTripled(int[] x, int[] y) {
    for (int i = 0; i < x.length; i++) {
      if (y[i] != x[i] * 3 + 1) fail("y[" + i + "] = " + y[i] + ", expected " + (x[i] * 3 + 1));
    }
  }

  @Test
  void launchesRunThroughTheHostAndReportTheirTimings() throws Exception {
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, ExecutorLog.NONE);
    try (OpenClExecutor ocl = executor(host, null)) {
      int[] x = ramp(100_000);
      int[] y = new int[x.length];
      for (int round = 0; round < 3; round++) ocl.execute(new Launch(TRIPLE, new Object[] {x, y}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT);
      assertTripled(x, y);
      assertEquals(3, ocl.totals().launches());
      assertTrue(ocl.totals().kernelNanos() > 0, ocl.totals().toString());
    }
    assertGone(host.pid());
  }

  /** Segments of 1 MiB at most: a 3 MiB array travels in pieces, and no segment file is left behind. */
  @Test
  void arraysLargerThanASegmentTravelInPieces(@TempDir Path shm) throws Exception {
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, ExecutorLog.NONE);
    SegmentPool pool = new SegmentPool(new SharedFiles(host, shm), 1 << 16, 1 << 20, 1 << 20);
    try (OpenClExecutor ocl = executor(host, pool)) {
      int[] x = ramp(3 << 18);
      int[] y = new int[x.length];
      ocl.execute(new Launch(TRIPLE, new Object[] {x, y}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT);
      assertTripled(x, y);
      try (var files = Files.list(shm)) {
        assertEquals(List.of(), files.toList(), "segment files are unlinked once both sides have them mapped");
      }
    }
  }

  @Test
  void segmentFilesAreCreatedOwnerOnly(@TempDir Path shm) throws IOException {
    Path file = SharedFiles.newFile(shm);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }

  @Test
  void aHostThatDiesFailsTheLaunchWritesNothingAndEndsOpenClWithOneWarning() throws Exception {
    Lines log = new Lines();
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, log);
    try (OpenClExecutor ocl = executor(host, null)) {
      int[] x = ramp(1000);
      int[] y = new int[x.length];
      ocl.execute(new Launch(TRIPLE, new Object[] {x, y}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT);
      ProcessHandle.of(host.pid()).orElseThrow().destroyForcibly();
      assertGone(host.pid());
      int[] untouched = new int[x.length];
      for (int attempt = 0; attempt < 2; attempt++) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> ocl.execute(
            new Launch(TRIPLE, new Object[] {x, untouched}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT));
        assertTrue(e.getMessage().startsWith("the OpenCL host process"), e.getMessage());
      }
      assertArrayEquals(new int[x.length], untouched);
      assertFalse(ocl.supports(TRIPLE, ExecutionOptions.EXACT), "loops go to the next executor from now on");
      assertEquals(1, log.warnings.size(), log.warnings.toString());
      assertTrue(log.warnings.get(0).contains("killed by signal 9") && log.warnings.get(0).contains("jvm executor"), log.warnings.toString());
    }
  }

  @Test
  void aHostThatStopsAnsweringIsGivenUpAfterTheLaunchTimeout() throws Exception {
    Lines log = new Lines();
    HostTimeouts launchIn5s = new HostTimeouts(SHORT.start(), SHORT.request(), Duration.ofSeconds(5));
    HostProcess host = HostProcess.start(getClass().getClassLoader(), launchIn5s, log);
    try (OpenClExecutor ocl = executor(host, null)) {
      int[] x = ramp(1000);
      int[] y = new int[x.length];
      ocl.execute(new Launch(TRIPLE, new Object[] {x, y}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT);
      assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(host.pid())).start().waitFor());
      int[] untouched = new int[x.length];
      long t0 = System.nanoTime();
      ExecutionException e = assertThrows(ExecutionException.class, () -> ocl.execute(
          new Launch(TRIPLE, new Object[] {x, untouched}, new long[0], new long[0], 0, 1, x.length), ExecutionOptions.EXACT));
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(15));
      assertTrue(e.getMessage().contains("did not answer within 5 s"), e.getMessage());
      assertArrayEquals(new int[x.length], untouched);
      assertGone(host.pid());
      assertEquals(1, log.warnings.size(), log.warnings.toString());
    }
  }

  /** The terminal's Ctrl-C reaches the host too: it ignores it, and keeps serving the program. */
  @Test
  void theHostIgnoresSigintAndSighup() throws Exception {
    HostProcess host = HostProcess.start(getClass().getClassLoader(), SHORT, ExecutorLog.NONE);
    try {
      DeviceInventory inventory = host.hello(cacheDir, "test");
      for (String signal : List.of("INT", "HUP")) {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(host.pid())).start().waitFor());
      }
      Thread.sleep(500);
      assertTrue(ProcessHandle.of(host.pid()).map(ProcessHandle::isAlive).orElse(false), "the host survives SIGINT and SIGHUP");
      assertTrue(host.usable());
      if (!inventory.isEmpty()) assertEquals(0, host.open(0));
    } finally {
      host.close();
    }
  }

  /** Whatever ends the program's JVM, its end of the host's stdin closes, and the host exits. */
  @Test
  void theHostExitsWhenItsStdinCloses() throws Exception {
    Process p = HostCommand.forHost(getClass().getClassLoader()).processBuilder().start();
    p.getOutputStream().close();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the host outlived its stdin");
    assertEquals(0, p.exitValue());
  }

  @Test
  void theHostGetsNoAgentOptionsOrClassPathFromTheEnvironment() {
    Map<String, String> env = new HashMap<>(Map.of("JAVA_TOOL_OPTIONS", "-javaagent:looplift-agent.jar=executor=opencl",
        "JDK_JAVA_OPTIONS", "-Xcheck:jni", "_JAVA_OPTIONS", "-Xmx1m", "CLASSPATH", "/x", "LOOPLIFT_EXECUTOR", "opencl",
        "OCL_ICD_VENDORS", "/etc/OpenCL/vendors", "HOME", "/root"));
    HostCommand.scrub(env);
    assertEquals(Map.of("OCL_ICD_VENDORS", "/etc/OpenCL/vendors", "HOME", "/root"), env);
  }

  @Test
  void theClassPathComesFromWhereTheClassesWereLoaded() throws IOException {
    ClassLoader loader = getClass().getClassLoader();
    Path jocl = HostCommand.root(loader, "org.jocl.CL");
    assertTrue(jocl.getFileName().toString().matches("jocl-.*\\.jar"), jocl.toString());
    Path classes = HostCommand.root(loader, HostMain.class.getName());
    assertTrue(Files.isRegularFile(classes.resolve("io/looplift/executors/opencl/host/HostMain.class")), classes.toString());
    IOException e = assertThrows(IOException.class, () -> HostCommand.root(loader, "no.such.Clazz"));
    assertTrue(e.getMessage().contains("no.such.Clazz"));
  }
}
