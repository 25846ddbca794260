package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.ADD;
import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static io.looplift.executors.select.Simulated.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one JVM run measured, the next one loads, unless what it measured is no longer valid. */
class PersistenceTest {
  private static final List<Candidate> ALL = List.of(BYTECODE, JVM, OPENCL);
  @TempDir Path cacheDir;
  private final List<String> warnings = new ArrayList<>();

  /** A JVM run: a fresh selection on the same directory, on the simulated machine. */
  private Simulated run() {
    return new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2).cost(OPENCL, 2_000_000, 0.05);
  }

  private Selector.Builder selector(Simulated sim) {
    return sim.selector().store(Selector.directory(cacheDir), warnings::add);
  }

  /**
   * Settles the kernel at 10^4, 10^7 and 10^8 elements: 25 measuring runs, three of each candidate but two of
   * the bytecode's at 10^7 and 10^8 (10 and 100 ms, five and fourteen times behind).
   */
  private static void measure(Simulated sim, SelectedKernel k) {
    assertEquals("bytecode", sim.settle(k, 10_000).candidate());
    assertEquals("jvm", sim.settle(k, 10_000_000).candidate());
    assertEquals("opencl:0", sim.settle(k, 100_000_000).candidate());
  }

  /** Launches at the sizes measured and between them; returns how many were measuring runs. */
  private static long relaunch(Simulated sim, SelectedKernel k, Source expected) {
    for (long n : new long[] {10_000, 100_000, 10_000_000, 100_000_000}) {
      Choice c = sim.launch(k, n);
      if (!c.measuring()) assertEquals(expected, c.source(), c.toString());
    }
    return sim.measuringRuns();
  }

  /**
   * The second run's pool is faster than the first measured it (0.1 ns an element against 0.2): its point follows
   * its runs, and the choice still counts as persisted, nothing having been measured. The store keeps the point
   * followed: a third run decides as the second ended.
   */
  @Test
  void aPersistedChoiceFollowsItsFasterRunsAndStaysPersisted() {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));
    Simulated second = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 0, 0.1).cost(OPENCL, 2_000_000, 0.05);
    SelectedKernel k = selector(second).build().kernel(KEY, ALL);
    for (int i = 0; i < 3; i++) assertEquals("jvm", second.launch(k, 10_000_000).candidate());
    SelectionReport r = k.report();
    assertEquals(Source.PERSISTED, r.source());
    assertEquals(0, r.measuringRuns());
    assertEquals(0.1, r.candidates().get("jvm"), 1e-6);
    second.settle(k, 1_000_000_000L); // a new size is measured, and the kernel's record written again

    Simulated third = run();
    SelectedKernel again = selector(third).build().kernel(KEY, ALL);
    Choice c = third.launch(again, 10_000_000);
    assertEquals("jvm", c.candidate());
    assertMentions(c.why(), "jvm 1.00 ms");
  }

  @Test
  void aSecondRunMeasuresNothingItAlreadyKnows() throws IOException {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));
    assertEquals(25, first.measuringRuns());

    Simulated second = run();
    SelectedKernel k = selector(second).build().kernel(KEY, ALL);
    assertEquals(0, relaunch(second, k, Source.PERSISTED));
    assertEquals(List.of("bytecode", "jvm", "jvm", "opencl:0"), second.ran);
    SelectionReport r = k.report();
    assertEquals(Source.PERSISTED, r.source());
    assertEquals(0, r.measuringRuns());
    assertEquals(List.of(), warnings);

    Path dir = Selector.directory(cacheDir);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
      }
    }
  }

  @Test
  void aRunThatEndsMidMeasurementLeavesItsRunsToTheNext() {
    Simulated first = run();
    SelectedKernel k1 = selector(first).build().kernel(KEY, ALL);
    for (int launch = 0; launch < 5; launch++) assertTrue(first.launch(k1, 10_000_000).measuring());
    assertEquals(5, first.measuringRuns(), "a program that launched its kernel 5 times, of the 9 measuring runs");

    Simulated second = run();
    SelectedKernel k2 = selector(second).build().kernel(KEY, ALL);
    assertEquals("jvm", second.settle(k2, 10_000_000).candidate());
    assertEquals(3, second.measuringRuns(), "the runs the first one did not get to, the bytecode settled by two");
  }

  @Test
  void aChangedClassFileInvalidatesTheRecordAndReplacesIt() {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));

    KernelKey changed = KernelKey.of(ADD, Map.of("app.Main", "hash-2"));
    Simulated second = run();
    measure(second, selector(second).build().kernel(changed, ALL));
    assertEquals(25, second.measuringRuns());

    Simulated third = run();
    assertEquals(0, relaunch(third, selector(third).build().kernel(changed, ALL), Source.PERSISTED));
    Simulated fourth = run();
    assertTrue(relaunch(fourth, selector(fourth).build().kernel(KEY, ALL), Source.MEASURED) > 0,
        "the old class's record was replaced");
  }

  @Test
  void aChangedDeviceIsMeasuredAgainAndOnlyIt() {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));

    Candidate newDriver = new Candidate("opencl:0", "GPU driver 2.0");
    Simulated second = run();
    SelectedKernel k = selector(second).build().kernel(KEY, List.of(BYTECODE, JVM, newDriver));
    measure(second, k);
    assertEquals(List.of("opencl:0*"), second.ran.stream().filter(r -> r.endsWith("*")).distinct().toList());
    assertEquals(9, second.measuringRuns(), "3 runs at each of 3 sizes, of the new device only");
  }

  @Test
  void aNewDeviceIsMeasuredAloneWhereTheOthersAreInterpolated() {
    Simulated first = run();
    SelectedKernel withoutGpu = selector(first).build().kernel(KEY, List.of(BYTECODE, JVM));
    first.settle(withoutGpu, 10_000);
    first.settle(withoutGpu, 10_000_000);

    Simulated second = run();
    SelectedKernel k = selector(second).build().kernel(KEY, ALL);
    assertEquals("jvm", second.settle(k, 100_000).candidate());
    assertEquals(List.of("opencl:0*", "opencl:0*", "opencl:0*", "jvm"), second.ran);
  }

  @Test
  void anotherVersionOrCoreCountInvalidatesTheRecord() {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));

    Simulated upgraded = run();
    SelectedKernel k = Selector.builder("1.1", 8).clock(() -> upgraded.now).store(Selector.directory(cacheDir),
        warnings::add).build().kernel(KEY, ALL);
    assertTrue(upgraded.launch(k, 10_000).measuring());
    Simulated bigger = run();
    k = Selector.builder("1.0", 64).clock(() -> bigger.now).store(Selector.directory(cacheDir), warnings::add)
        .build().kernel(KEY, ALL);
    assertTrue(bigger.launch(k, 10_000).measuring());
  }

  @Test
  void aDamagedRecordIsIgnoredAndReplaced() throws IOException {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));
    Path record = Selector.directory(cacheDir).resolve(KEY.storeId() + ".sel");
    byte[] bytes = Files.readAllBytes(record);
    bytes[bytes.length - 3] ^= 1;
    Files.write(record, bytes);

    Simulated second = run();
    measure(second, selector(second).build().kernel(KEY, ALL));
    assertEquals(25, second.measuringRuns());
    Simulated third = run();
    assertEquals(0, relaunch(third, selector(third).build().kernel(KEY, ALL), Source.PERSISTED));
  }

  @Test
  void aFailedCandidateStaysDroppedInTheNextRun() {
    Simulated first = run().failing(OPENCL);
    SelectedKernel k = selector(first).build().kernel(KEY, ALL);
    assertEquals("jvm", first.settle(k, 10_000_000).candidate());
    assertEquals(Map.of("opencl:0", "opencl:0 threw"), k.report().dropped());

    Simulated second = run();
    SelectedKernel again = selector(second).build().kernel(KEY, ALL);
    assertEquals("jvm", second.settle(again, 100_000_000).candidate(), "measured without the dropped device");
    assertEquals(5, second.measuringRuns(), "the bytecode settled by two runs of 100 ms, five times behind");
    assertFalse(second.ran.contains("opencl:0*"));
    assertEquals(Map.of("opencl:0", "opencl:0 threw"), again.report().dropped());
  }

  @Test
  void withoutAStoreOrWhenForcedNothingIsKept() throws IOException {
    Simulated first = run();
    measure(first, first.selector().build().kernel(KEY, ALL));
    Simulated forced = run();
    SelectedKernel k = selector(forced).forced("executor=jvm").build().kernel(KEY, List.of(JVM, BYTECODE));
    forced.launch(k, 10_000);
    assertFalse(Files.exists(Selector.directory(cacheDir)));
  }

  @Test
  void aDirectoryOthersCanWriteIsRefusedWithOneWarning() throws IOException {
    Path dir = Selector.directory(cacheDir);
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Simulated sim = run();
    measure(sim, selector(sim).build().kernel(KEY, ALL));
    assertEquals(1, warnings.size(), warnings::toString);
    Simulated.assertMentions(warnings.get(0), "executor choices are not kept on disk");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void theDefaultDirectoryIsInsideTheProgramCache() {
    assertEquals(cacheDir.resolve("selection"), Selector.directory(cacheDir));
    assertEquals(io.looplift.tracecache.DiskProgramStore.defaultDirectory().resolve("selection"),
        Selector.directory(null));
  }

  @Test
  void aDeviceThatLostEverywhereIsNotWorthOpeningAgain() {
    Simulated first = run();
    measure(first, selector(first).build().kernel(KEY, ALL));
    Simulated second = run();
    assertFalse(selector(second).build().kernel(KEY, List.of(BYTECODE, JVM)).othersLostBefore(),
        "the device won at 10^8 elements");

    Simulated slowDevice = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2).cost(OPENCL, 2_000_000, 0.5);
    Path other = cacheDir.resolve("other");
    SelectedKernel measured = slowDevice.selector().store(Selector.directory(other), warnings::add).build()
        .kernel(KEY, ALL);
    assertEquals("bytecode", slowDevice.settle(measured, 10_000).candidate());
    assertEquals("jvm", slowDevice.settle(measured, 100_000_000).candidate());
    Simulated next = run();
    Selector again = next.selector().store(Selector.directory(other), warnings::add).build();
    assertTrue(again.kernel(KEY, List.of(BYTECODE, JVM)).othersLostBefore(), "the device lost at every size");
    assertFalse(again.kernel(KEY, ALL).othersLostBefore(), "nothing but its own candidates");
  }

  @Test
  void nothingStoredSaysNothingOfDevices() {
    Simulated sim = run();
    assertFalse(selector(sim).build().kernel(KEY, List.of(BYTECODE, JVM)).othersLostBefore());
  }
}
