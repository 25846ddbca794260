package io.looplift.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.select.Candidate;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pipeline assembled through its public builder, without any agent, on a fake clock. */
class PipelineTest {
  private final EScheduler scheduler = new EScheduler("pipeline-test-", 1, 8, 1L << 30);

  @AfterEach
  void close() {
    scheduler.close();
  }

  /** What an opener gives: the reference executor alone, no devices, the test's scheduler. */
  private Pipeline.Backend referenceBackend() {
    return new Pipeline.Backend(
        List.of(new Offload(new ReferenceExecutor(), new Candidate("reference", "interpreter"))), LateDevices.none(),
        scheduler);
  }

  /** {@code out[i] = in[i] + 1} over ints. */
  private static LoopSite increment() {
    LoopTemplate t = new LoopTemplate(List.of(Type.INT, Type.INT), List.of(), List.of(),
        List.of(new Store(1, Type.INT, Index.I,
            Binary.of(BinaryOp.ADD, new Load(0, Type.INT, Index.I), Const.ofInt(1)), Const.TRUE)), List.of());
    return new LoopSite("com.acme.Foo", "inc", "([I[I)V", 12, "map", t, new LoopShape(Cond.LT, 1), null);
  }

  @Test
  void kernelTimesComeFromTheClockPassedIn() {
    AtomicLong now = new AtomicLong();
    Profiler profiler = new Profiler();
    List<String> lines = new ArrayList<>();
    Pipeline pipeline = Pipeline.builder()
        .executors(List.of(new ReferenceExecutor()))
        .scheduler(scheduler)
        .profiler(profiler)
        .log(new Log(Log.Level.INFO, lines::add))
        // Every reading advances the clock by 250 ns: a launch is timed from two readings.
        .clock(() -> now.addAndGet(250))
        .build();
    int id = pipeline.sites().register(increment());
    assertEquals(List.of("looplift: offloaded com.acme.Foo.inc:12 map"), lines);
    LoopBridge.Dispatcher d = pipeline.dispatcher();
    int[] in = {1, 2, 3, 4};
    for (int round = 0; round < 3; round++) {
      int[] out = new int[4];
      assertEquals(LoopBridge.TAKEN, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
      d.sync();
      assertArrayEquals(new int[] {2, 3, 4, 5}, out);
    }
    String report = profiler.reportJson();
    assertTrue(report.contains("\"launches\":3,\"timeNanos\":750"), report);
    assertTrue(report.contains("\"runs\":{\"offloaded\":3,\"fallback\":0},\"timeNanos\":750"), report);
  }

  @Test
  void verifyModeSetOnTheBuilderChecksLaunchesAndMovesAWrongKernelOn() {
    Profiler profiler = new Profiler();
    List<String> lines = new ArrayList<>();
    TamperingExecutor wrong = new TamperingExecutor("wrong", (launch, n) -> ((int[]) launch.arrays()[1])[2] = 0);
    Pipeline pipeline = Pipeline.builder()
        .executors(List.of(wrong, TamperingExecutor.faithful("good"), new ReferenceExecutor()))
        .scheduler(scheduler)
        .profiler(profiler)
        .log(new Log(Log.Level.QUIET, lines::add))
        .verify(new VerifyPolicy(VerifyPolicy.Mode.ALL, 1))
        .build();
    int id = pipeline.sites().register(increment());
    LoopBridge.Dispatcher d = pipeline.dispatcher();
    int[] in = {1, 2, 3, 4};
    for (int round = 0; round < 3; round++) {
      int[] out = new int[4];
      assertEquals(LoopBridge.TAKEN, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
      d.sync();
      assertArrayEquals(new int[] {2, 3, 4, 5}, out, "round " + round);
    }
    assertEquals(1, wrong.launches());
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).contains("first at array 1[2], expected 4, got 0"), lines.get(0));
    String report = profiler.reportJson();
    assertTrue(report.contains("\"verify\":{\"mode\":\"all\",\"checked\":3,\"mismatches\":1,"), report);
  }

  @Test
  void verifyModeIsOffByDefault() {
    Profiler profiler = new Profiler();
    Pipeline.builder().executors(List.of(new ReferenceExecutor())).scheduler(scheduler).profiler(profiler).build();
    assertTrue(profiler.reportJson().contains("\"verify\":{\"mode\":\"off\",\"checked\":0"), profiler.reportJson());
  }

  @Test
  void anUnknownSiteRunsTheOriginalLoop() {
    Pipeline pipeline = Pipeline.builder().executors(List.of(new ReferenceExecutor())).scheduler(scheduler).build();
    assertEquals(LoopBridge.DECLINED, pipeline.dispatcher().submit(7, new Object[0], new long[1], 0, 4));
  }

  @Test
  void executorsOpenedLaterOpenOnceWhenTheFirstLoopIsOffered() {
    List<String> opened = new ArrayList<>();
    Pipeline pipeline = Pipeline.builder().openLater(() -> {
      opened.add("open");
      return referenceBackend();
    }).build();
    int id = pipeline.sites().register(increment());
    LoopBridge.Dispatcher d = pipeline.dispatcher();
    d.sync();
    d.abortRegion();
    assertFalse(d.endRegion());
    // A loop too short to be offered may still ask whether a class is initialized, and say why it fell back.
    assertFalse(d.initialized(String.class), "no probe was given: no class counts as initialized");
    d.fallback(id, "waits for a class");
    assertEquals(List.of(), opened, "nothing can be pending before a loop is offered");
    int[] in = {1, 2, 3, 4};
    int[] out = new int[4];
    assertEquals(LoopBridge.TAKEN, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
    d.sync();
    assertArrayEquals(new int[] {2, 3, 4, 5}, out);
    assertEquals(LoopBridge.TAKEN, d.submit(id, new Object[] {out, in}, new long[1], 0, 4));
    d.sync();
    assertEquals(List.of("open"), opened);
  }

  /** An object with a field its loops' classes could not name. */
  private static final class Holder {
    private final int size = 7;
  }

  @Test
  void withTheBytecodeACandidateTheLoopsOfferedAreTimedUntilTheyPaidForOpeningTheExecutorsInTheBackground() {
    Profiler profiler = new Profiler();
    AtomicLong now = new AtomicLong();
    CountDownLatch release = new CountDownLatch(1);
    List<String> openedOn = new CopyOnWriteArrayList<>();
    Pipeline pipeline = Pipeline.builder().profiler(profiler).bytecodeCandidate(true).clock(now::get)
        .openAfter(Duration.ofMillis(100)).openLater(() -> {
          openedOn.add(Thread.currentThread().getName());
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return referenceBackend();
        }).build();
    int id = pipeline.sites().register(increment());
    LoopBridge.Dispatcher d = pipeline.dispatcher();
    int[] in = {1, 2, 3, 4};
    int[] out = new int[4];
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
    now.addAndGet(60_000_000);
    d.ran(id);
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
    now.addAndGet(30_000_000);
    d.ran(id + 1);
    d.ran(id);
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {in, out}, new long[1], 0, 4),
        "another site's report counts nothing: 90 ms so far");
    now.addAndGet(10_000_000);
    assertEquals(7, assertDoesNotThrow(() -> d.field(new Holder(), "io/looplift/runtime/PipelineTest$Holder", "size")),
        "a field is read without opening anything");
    assertEquals(List.of(), openedOn);
    d.ran(id);
    await().atMost(Duration.ofSeconds(10)).until(() -> openedOn.size() == 1);
    // The opener is held: were it run on this thread, submit would never return.
    assertEquals(LoopBridge.DECLINED, d.submit(id, new Object[] {in, out}, new long[1], 0, 4));
    assertArrayEquals(new int[4], out, "a declined loop is the caller's to run");
    assertTrue(profiler.reportJson().contains("\"fallback\":4},\"timeNanos\":0,\"lastFallback\":\""
        + OpeningDispatcher.OPENING + "\""), profiler.reportJson());
    release.countDown();
    await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(
        () -> d.submit(id, new Object[] {in, out}, new long[1], 0, 4) == LoopBridge.TAKEN);
    d.sync();
    assertArrayEquals(new int[] {2, 3, 4, 5}, out);
    assertEquals(List.of("looplift-open"), openedOn, "opened once, on its own thread");
  }

  @Test
  void theLoopsOfferedBeforeOpeningSayWhyTheyRanAsBytecode() {
    Profiler profiler = new Profiler();
    List<String> opened = new CopyOnWriteArrayList<>();
    Pipeline pipeline = Pipeline.builder().profiler(profiler).bytecodeCandidate(true).openLater(() -> {
      opened.add("open");
      return referenceBackend();
    }).build();
    int id = pipeline.sites().register(increment());
    assertEquals(LoopBridge.TIMED, pipeline.dispatcher().submit(id, new Object[] {new int[4], new int[4]},
        new long[1], 0, 4));
    pipeline.dispatcher().ran(id);
    assertEquals(List.of(), opened, "a run of microseconds does not pay for 150 ms of opening");
    assertTrue(profiler.reportJson().contains("\"lastFallback\":\"" + OpeningDispatcher.NOT_YET + "\""),
        profiler.reportJson());
  }

  @Test
  void executorsThatCannotBeOpenedLeaveEveryLoopAsBytecode() {
    List<String> lines = new ArrayList<>();
    Pipeline pipeline = Pipeline.builder().log(new Log(Log.Level.QUIET, lines::add)).openLater(() -> {
      throw new IllegalStateException("no pool");
    }).build();
    int id = pipeline.sites().register(increment());
    LoopBridge.Dispatcher d = pipeline.dispatcher();
    assertEquals(LoopBridge.DECLINED, d.submit(id, new Object[] {new int[4], new int[4]}, new long[1], 0, 4));
    d.beginRegion(0);
    assertEquals(null, d.temp(4, 10));
    assertFalse(d.endRegion());
    assertEquals(LoopBridge.DECLINED, d.submit(id, new Object[] {new int[4], new int[4]}, new long[1], 0, 4));
    assertEquals(List.of("looplift: could not open the executors (java.lang.IllegalStateException: no pool);"
        + " loops run as they are"), lines);
  }

  @Test
  void theBuilderRefusesAPipelineWithoutExecutorsOrScheduler() {
    assertThrows(IllegalArgumentException.class, () -> Pipeline.builder().executors(List.of()));
    assertThrows(IllegalStateException.class, () -> Pipeline.builder().scheduler(scheduler).build());
    assertThrows(IllegalStateException.class,
        () -> Pipeline.builder().executors(List.of(new ReferenceExecutor())).build());
  }
}
