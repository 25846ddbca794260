package io.looplift.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Device;
import io.looplift.executors.Executor;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import io.looplift.executors.Launch;
import io.looplift.executors.jvm.JvmExecutor;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.select.Candidate;
import io.looplift.executors.select.ExecutorChain;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.Selector;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopDispatcherTest {
  private static final Node I = Index.I;
  private static final LoopShape UP = new LoopShape(Cond.LT, 1);

  private final List<String> lines = new ArrayList<>();
  private final Profiler profiler = new Profiler();
  private final Log log = new Log(Log.Level.DEBUG, lines::add);
  private final SiteTable sites = new SiteTable(profiler, log);
  private final List<Executor> opened = new ArrayList<>();
  private final EScheduler scheduler = new EScheduler("test-escheduler-", 2, 8, 1L << 30);
  /** The sites the dispatcher rested, with the lengths. */
  private final List<String> rested = new ArrayList<>();
  /** The program thread's processor time; unknown unless a test sets it. */
  private LongSupplier threadCpu = () -> -1;

  @AfterEach
  void close() {
    scheduler.close();
    opened.forEach(Executor::close);
  }

  private LoopDispatcher dispatcher(int queueLimit, Executor... executors) {
    opened.addAll(List.of(executors));
    List<Offload> offloads = new ArrayList<>();
    for (Executor x : executors) offloads.add(Offload.named(x));
    Selector forced = Selector.builder("test", 2).forced("executor=test").build();
    return dispatcher(new Selections(forced, offloads, LateDevices.none(), false, ExecutionOptions.EXACT, profiler),
        queueLimit, System::nanoTime);
  }

  private LoopDispatcher dispatcher(Selections selections, int queueLimit, LongSupplier clock) {
    KernelRunner runner = new KernelRunner(selections, ExecutionOptions.EXACT, profiler, log, clock, null);
    return new LoopDispatcher(sites, runner, selections, scheduler, profiler, log, queueLimit, clock, threadCpu,
        new SiteRests() {
          @Override
          boolean rest(int siteId, long upTo) {
            return rested.add(siteId + " up to " + upTo);
          }

          @Override
          void offerAgainIn(int siteId, long nanos) {
            rested.add(siteId + " offered again in " + nanos);
          }
        }, c -> false,
        new ShortLoops(sites, profiler, ClassRewriting.NONE, id -> false, log));
  }

  /** A dispatcher whose loops {@code selector} measures against {@code jvm}, on the clock {@code now}. */
  private LoopDispatcher measured(Selector selector, Executor jvm, AtomicLong now) {
    Selections selections = new Selections(selector, List.of(new Offload(jvm, new Candidate("jvm", "two threads"))),
        LateDevices.none(), true, ExecutionOptions.EXACT, profiler);
    return dispatcher(selections, 64, now::get);
  }

  private static void assertTaken(int outcome) {
    assertEquals(LoopBridge.TAKEN, outcome, "taken");
  }

  private static void assertDeclined(int outcome, String... why) {
    assertEquals(LoopBridge.DECLINED, outcome, "declined " + String.join("", why));
  }

  private LoopDispatcher reference() { return dispatcher(64, new ReferenceExecutor()); }

  private int site(LoopTemplate t, LoopShape shape, String kind) {
    return sites.register(new LoopSite("com.acme.Foo", "bar", "([D[D)V", 42, kind, t, shape, null));
  }

  /** {@code b[i] = a[i + shift] * p0 + 1.0} over doubles. */
  private static LoopTemplate scale(int shift) {
    Node a = new Load(0, Type.DOUBLE, Binary.of(BinaryOp.ADD, I, Const.ofInt(shift)));
    Node v = Binary.of(BinaryOp.ADD, Binary.of(BinaryOp.MUL, a, new Param(0, Type.DOUBLE)), Const.ofDouble(1.0));
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.DOUBLE), List.of(),
        List.of(new Store(1, Type.DOUBLE, I, v, Const.TRUE)), List.of());
  }

  /** {@code s += a[i]} over doubles, in Java's order. */
  private static LoopTemplate sum() {
    Node e = new Load(0, Type.DOUBLE, I);
    Node update = Binary.of(BinaryOp.ADD, new Acc(0, Type.DOUBLE), e);
    return new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(),
        List.of(new Reduction(0, Type.DOUBLE, update, ReduceOp.ADD, e)));
  }

  private static double[] ramp(int n) {
    double[] a = new double[n];
    for (int k = 0; k < n; k++) a[k] = k * 0.5 + 0.1;
    return a;
  }

  private static long[] scalars(double p) {
    return new long[] {Double.doubleToRawLongBits(p), 0};
  }

  private static double[] expectedScale(double[] a, int shift, int from, int to, double p, int n) {
    double[] b = new double[n];
    for (int i = from; i < to; i++) b[i] = a[i + shift] * p + 1.0;
    return b;
  }

  private String report() { return profiler.reportJson(); }

  @Test
  void aMapIsDeferredUntilSync() {
    LoopDispatcher d = reference();
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100);
    double[] b = new double[100];
    long[] s = scalars(3.0);
    assertTaken(d.submit(id, new Object[] {a, b}, s, 0, 100));
    assertEquals(100, s[1], "the induction variable after the loop");
    assertArrayEquals(new double[100], b, "deferred until a read point");
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, 100, 3.0, 100), b);
    assertTrue(report().contains("\"offloaded\":1"), report());
    assertTrue(report().contains("\"executor\":\"reference\""), report());
  }

  @Test
  void theQueueGoesToTheBackgroundAtItsLimit() {
    LoopDispatcher d = dispatcher(2, new ReferenceExecutor());
    int id = site(scale(0), UP, "map");
    double[] a = ramp(10);
    double[] b1 = new double[10];
    double[] b2 = new double[10];
    assertTaken(d.submit(id, new Object[] {a, b1}, scalars(2.0), 0, 10));
    assertArrayEquals(new double[10], b1);
    assertTaken(d.submit(id, new Object[] {a, b2}, scalars(4.0), 0, 10));
    // No read point: the E-scheduler runs the program while this thread goes on.
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertArrayEquals(expectedScale(a, 0, 0, 10, 2.0, 10), b1);
      assertArrayEquals(expectedScale(a, 0, 0, 10, 4.0, 10), b2);
    });
    d.sync();
  }

  @Test
  void consecutiveLoopsFuseIntoOneKernelAndARepeatHitsTheTraceCache() {
    LoopDispatcher d = dispatcher(64, new JvmExecutor(2), new ReferenceExecutor());
    int id = site(scale(0), UP, "map");
    for (int round = 0; round < 3; round++) {
      double[] a = ramp(1000 + round);
      double[] b = new double[a.length];
      double[] c = new double[a.length];
      assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0 + round), 0, a.length));
      assertTaken(d.submit(id, new Object[] {b, c}, scalars(3.0), 0, a.length));
      d.sync();
      double[] eb = expectedScale(a, 0, 0, a.length, 2.0 + round, a.length);
      assertArrayEquals(eb, b);
      assertArrayEquals(expectedScale(eb, 0, 0, a.length, 3.0, a.length), c);
    }
    String r = report();
    assertTrue(r.contains("\"loops\":[" + id + "],\"launches\":3"), "one fused kernel, three launches: " + r);
    assertTrue(r.contains("#" + id + "+" + id), r);
    assertTrue(r.contains("\"traceCache\":{\"hits\":2,\"misses\":1"), r);
  }

  @Test
  void theMeasuredSelectionKeepsALoopAsBytecodeWhenTheExecutorIsSlower() {
    AtomicLong now = new AtomicLong();
    JvmExecutor jvm = new JvmExecutor(2);
    opened.add(jvm);
    Executor slow = slowed(jvm, "jvm", now, 50_000);
    // The original loop's runs are timed from the first, as if the JIT had compiled it before.
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0).build();
    LoopDispatcher d = measured(measuring, slow, now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length),
        "the bytecode is measured first, on the program thread");
    now.addAndGet(1_000); // the original loop runs
    d.ran(id);
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length));
    assertArrayEquals(expectedScale(a, 0, 0, a.length, 2.0, a.length), b, "the measuring run computed the loop");
    assertDeclined(d.submit(id, new Object[] {a, b}, scalars(3.0), 0, a.length), "the bytecode was faster");
    String r = report();
    assertTrue(r.contains("\"selection\":{\"executor\":\"bytecode\",\"source\":\"measured\""), r);
    assertTrue(r.contains("\"bytecode\":0.010"), "1000 ns over 100000 iterations: " + r);
    assertTrue(r.contains("\"measuringRuns\":2"), r);
    assertEquals(List.of(), rested, "re-checks are due: its runs are still offered");
  }

  /**
   * A site whose selection will not be asked again about launches like this one (here: no executor runs it)
   * rests its runs up to the next power of two of their length: they go to the original loop unoffered.
   */
  @Test
  void aSiteKeptAsBytecodeForGoodRestsItsRunsOfThatLength() {
    AtomicLong now = new AtomicLong();
    Executor none = new Executor() {
      @Override public String name() { return "jvm"; }
      @Override public boolean supports(LoopTemplate t, ExecutionOptions o) { return false; }
      @Override public void execute(Launch launch, ExecutionOptions options) {
        throw new AssertionError("supports nothing");
      }
      @Override public void close() {}
    };
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0).build();
    LoopDispatcher d = measured(measuring, none, now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    long[] withLength = scalars(2.0);
    withLength[withLength.length - 1] = a.length; // the preamble's measure of the run
    assertDeclined(d.submit(id, new Object[] {a, b}, withLength, 0, a.length), "only the bytecode runs it");
    assertEquals(List.of(id + " up to 131071"), rested);
    assertTrue(report().contains("runs of length up to 131071 run as bytecode from now on, unasked"), report());
  }

  /**
   * The original loop's measuring run counts the time its thread ran, not what other threads took from it: the
   * same kernel's launch by another thread on the pool, or the JIT.
   */
  @Test
  void anOriginalLoopIsMeasuredByTheProcessorTimeOfItsThread() {
    AtomicLong now = new AtomicLong();
    AtomicLong cpu = new AtomicLong();
    threadCpu = cpu::get;
    JvmExecutor jvm = new JvmExecutor(2);
    opened.add(jvm);
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0).build();
    LoopDispatcher d = measured(measuring, slowed(jvm, "jvm", now, 3_000), now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length));
    now.addAndGet(5_000); // the original loop runs, its thread off the processor for 4 of those 5 µs
    cpu.addAndGet(1_000);
    d.ran(id);
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length));
    d.sync();
    assertDeclined(d.submit(id, new Object[] {a, b}, scalars(3.0), 0, a.length), "1 µs against the pool's 3");
    String r = report();
    assertTrue(r.contains("\"bytecode\":0.010"), "1000 ns over 100000 iterations: " + r);
  }

  /**
   * A site whose selection settled on its bytecode after the pool's first run was slow (its kernel still
   * compiling, another process on a core) is declined without asking for a while, but not past the launch its
   * re-check is due at: the pool runs again there, is fast now, and takes the site's launches from then on.
   */
  @Test
  void aSiteSettledOnItsBytecodeIsStillRecheckedWhenDue() {
    AtomicLong now = new AtomicLong();
    JvmExecutor jvm = new JvmExecutor(2);
    opened.add(jvm);
    AtomicLong poolNanos = new AtomicLong(3_000);
    Executor warming = new Executor() {
      @Override public String name() { return "jvm"; }
      @Override public boolean supports(LoopTemplate t, ExecutionOptions o) { return jvm.supports(t, o); }
      @Override public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
        jvm.execute(launch, options);
        now.addAndGet(poolNanos.getAndSet(100));
      }
      @Override public void close() {}
    };
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0).build();
    LoopDispatcher d = measured(measuring, warming, now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    for (int i = 0; i < 6; i++) launch(d, id, now, a, b);
    d.sync();
    String r = report();
    assertTrue(r.contains("\"selection\":{\"executor\":\"jvm\",\"source\":\"measured\""), r);
    assertTrue(r.contains("\"measuringRuns\":3"), "bytecode, the pool, and its re-check at the second launch: " + r);
    assertArrayEquals(expectedScale(a, 0, 0, a.length, 2.0, a.length), b);
  }

  /**
   * A site whose selection settled on its bytecode is declined without asking the selection again, yet the
   * work of those launches counts: devices are asked for once it reaches {@link Selections#DEVICE_WORK}, and
   * the site is measured on them as soon as they opened.
   */
  @Test
  void launchesDeclinedAtOnceStillBringTheDevicesIn() {
    AtomicLong now = new AtomicLong();
    JvmExecutor jvm = new JvmExecutor(2);
    ReferenceExecutor reference = new ReferenceExecutor();
    opened.addAll(List.of(jvm, reference));
    AtomicInteger asked = new AtomicInteger();
    ExecutorProvider gpu = new ExecutorProvider() {
      @Override public String name() { return "gpu"; }
      @Override public List<Device> devices(ExecutorEnvironment env) {
        asked.incrementAndGet();
        return List.of(new Device("gpu", 0, "slow", Device.Kind.GPU, "a slow device"));
      }
      @Override public String inventoryNote() { return "one slow device"; }
      @Override public Executor open(Device device, ExecutorEnvironment env) {
        return slowed(jvm, "gpu", now, 10_000_000);
      }
    };
    ExecutorChain.Opened chain = ExecutorChain.open(List.of(gpu), ExecutorChain.AUTO, null,
        new ExecutorEnvironment(ExecutionOptions.EXACT, null, "test", 2), devices -> {});
    try (LateDevices later = chain.later()) {
      Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).build();
      Executor slow = slowed(jvm, "jvm", now, 50_000);
      Selections selections = new Selections(measuring, List.of(new Offload(slow, new Candidate("jvm", "two threads")),
          Offload.named(reference)), later, true, ExecutionOptions.EXACT, profiler);
      LoopDispatcher d = dispatcher(selections, 64, now::get);
      int id = site(scale(0), UP, "map");
      int n = 100_000;
      double[] a = ramp(n);
      double[] b = new double[n];
      // Every launch does at least n units of work, so the devices must be asked for by this one.
      long bound = Selections.DEVICE_WORK / n + 1;
      long launches = 0;
      while (asked.get() == 0 && launches <= bound) {
        launch(d, id, now, a, b);
        launches++;
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> asked.get() > 0 && !selections.devices().isEmpty());
      assertTrue(launches <= bound, "devices asked for after " + launches + " launches");
      for (int k = 0; k < 100 && !report().contains("\"gpu:0\""); k++) launch(d, id, now, a, b);
      d.sync();
      String r = report();
      assertTrue(r.contains("\"gpu:0\""), "measured on the device once it opened: " + r);
      assertTrue(r.contains("\"selection\":{\"executor\":\"bytecode\""), r);
      assertArrayEquals(expectedScale(a, 0, 0, n, 2.0, n), b);
    }
  }

  /**
   * An executor that throws what no executor should (an {@link IllegalStateException}, not an
   * {@link ExecutionException}) on the first of two queued maps: that loop is said to be lost, and the second
   * one, queued behind it in the same flush, still runs.
   */
  @Test
  void anInternalErrorInOneKernelLosesOnlyItsOwnLoops() {
    double[] a = ramp(100);
    double[] b = new double[100];
    double[] c = ramp(200);
    double[] e = new double[200];
    ReferenceExecutor reference = new ReferenceExecutor();
    Executor buggy = new Executor() {
      @Override public String name() { return "buggy"; }
      @Override public boolean supports(LoopTemplate t, ExecutionOptions o) { return reference.supports(t, o); }
      @Override public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
        for (Object array : launch.arrays()) {
          if (array == b) throw new IllegalStateException("a bug");
        }
        reference.execute(launch, options);
      }
      @Override public void close() {}
    };
    LoopDispatcher d = dispatcher(64, buggy);
    int first = sites.register(new LoopSite("com.acme.Foo", "bar", "([D[D)V", 42, "map", scale(0), UP, null));
    int second = sites.register(new LoopSite("com.acme.Foo", "bar", "([D[D)V", 43, "map", scale(0), UP, null));
    assertTaken(d.submit(first, new Object[] {a, b}, scalars(2.0), 0, 100));
    assertTaken(d.submit(second, new Object[] {c, e}, scalars(3.0), 0, 200));
    d.sync();
    assertArrayEquals(expectedScale(c, 0, 0, 200, 3.0, 200), e, "the loop queued behind the failed one ran");
    assertTrue(lines.stream().anyMatch(l -> l.contains("Foo.bar:42") && l.contains("may be missing")), lines::toString);
  }

  /**
   * The selection's store fails as a measured launch completes (its writer throws): the launch's results are
   * the program's, and only what the selection would have kept is lost.
   */
  @Test
  void aFailureToRecordALaunchDoesNotLoseIt(@TempDir Path cache) {
    AtomicLong now = new AtomicLong();
    JvmExecutor jvm = new JvmExecutor(2);
    opened.add(jvm);
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0)
        .store(Selector.directory(cache), lines::add)
        .writer(task -> { throw new IllegalStateException("the disk is gone"); }).build();
    LoopDispatcher d = measured(measuring, jvm, now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    launch(d, id, now, a, b); // the bytecode's measuring run
    double[] c = new double[a.length];
    assertTaken(d.submit(id, new Object[] {a, c}, scalars(2.0), 0, a.length));
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, a.length, 2.0, a.length), c, "the jvm executor's measuring run");
    assertFalse(lines.stream().anyMatch(l -> l.contains("may be missing")), lines::toString);
    assertTrue(lines.stream().anyMatch(l -> l.contains("the disk is gone")), lines::toString);
  }

  /** {@code x} named {@code name}, taking {@code nanos} on the fake clock per launch. */
  private static Executor slowed(Executor x, String name, AtomicLong now, long nanos) {
    return new Executor() {
      @Override public String name() { return name; }
      @Override public boolean supports(LoopTemplate t, ExecutionOptions o) { return x.supports(t, o); }
      @Override public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
        x.execute(launch, options);
        now.addAndGet(nanos);
      }
      @Override public void close() {}
    };
  }

  /** One launch as the rewritten loop makes it; a declined or timed one runs the original loop, taking 1 µs. */
  private static void launch(LoopDispatcher d, int id, AtomicLong now, double[] a, double[] b) {
    int outcome = d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length);
    if (outcome == LoopBridge.TAKEN) return;
    for (int i = 0; i < a.length; i++) b[i] = a[i] * 2.0 + 1.0;
    now.addAndGet(1_000);
    if (outcome == LoopBridge.TIMED) d.ran(id);
  }

  @Test
  void theMeasuredSelectionOffloadsALoopWhenTheExecutorIsFaster() {
    AtomicLong now = new AtomicLong();
    JvmExecutor jvm = new JvmExecutor(2);
    opened.add(jvm);
    // The original loop's runs are timed from the first, as if the JIT had compiled it before.
    Selector measuring = Selector.builder("test", 2).clock(now::get).samples(1).warmUp(0).build();
    LoopDispatcher d = measured(measuring, jvm, now);
    int id = site(scale(0), UP, "map");
    double[] a = ramp(100_000);
    double[] b = new double[a.length];
    assertEquals(LoopBridge.TIMED, d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length));
    now.addAndGet(1_000_000);
    d.ran(id);
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, a.length));
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(4.0), 0, a.length));
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, a.length, 4.0, a.length), b);
    assertTrue(report().contains("\"selection\":{\"executor\":\"jvm\",\"source\":\"measured\""), report());
  }

  @Test
  void aReductionResultFeedingAMapIsNeverInTheSameKernel() {
    LoopDispatcher d = reference();
    int sum = site(sum(), UP, "reduce");
    int map = site(scale(0), UP, "map");
    double[] a = ramp(100);
    double[] b = new double[100];
    long[] s = {0, 0};
    assertTaken(d.submit(sum, new Object[] {a}, s, 0, 100));
    double total = Double.longBitsToDouble(s[0]);
    assertTaken(d.submit(map, new Object[] {a, b}, scalars(total), 0, 100));
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, 100, total, 100), b);
    String r = report();
    assertTrue(r.contains("#" + sum + "\"") && r.contains("#" + map + "\""), "two kernels: " + r);
  }

  @Test
  void aRegionRunsWithoutAllocatingItsTemporary() {
    LoopDispatcher d = dispatcher(64, new JvmExecutor(2), new ReferenceExecutor());
    int id = site(scale(0), UP, "map");
    double[] a = ramp(5000);
    double[] out = new double[5000];
    d.beginRegion(0);
    Object t = d.temp(5000, 7); // T_DOUBLE
    assertTaken(d.submit(id, new Object[] {a, t}, scalars(2.0), 0, 5000));
    assertTaken(d.submit(id, new Object[] {t, out}, scalars(3.0), 0, 5000));
    assertTrue(d.endRegion());
    d.sync();
    assertArrayEquals(expectedScale(expectedScale(a, 0, 0, 5000, 2.0, 5000), 0, 0, 5000, 3.0, 5000), out);
    assertTrue(report().contains("#" + id + "+" + id), report());
  }

  @Test
  void aRegionWithAFailingGuardIsDeclinedWithoutRunningAnything() {
    LoopDispatcher d = reference();
    int id = site(scale(1), UP, "map");
    double[] a = ramp(100);
    double[] out = new double[100];
    d.beginRegion(0);
    Object t = d.temp(100, 7);
    assertTaken(d.submit(id, new Object[] {a, t}, scalars(2.0), 0, 99));
    assertDeclined(d.submit(id, new Object[] {t, out}, scalars(2.0), 0, 100), "reads t[100]");
    assertFalse(d.endRegion());
    d.sync();
    assertArrayEquals(new double[100], out);
    assertFalse(report().contains("\"fallback\":1"), "the original code's own loops report what happens: " + report());
    assertTrue(d.temp(-1, 7) == null, "a negative length declines the region");
  }

  @Test
  void manyThreadsRunLoopChainsConcurrently() throws Exception {
    LoopDispatcher d = dispatcher(3, new JvmExecutor(2), new ReferenceExecutor());
    int id = site(scale(0), UP, "map");
    double[] a = ramp(40_000);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int k = 0; k < 6; k++) {
      double f = k + 1;
      threads.add(new Thread(() -> {
        try {
          for (int round = 0; round < 30; round++) {
            double[] b = new double[a.length];
            double[] c = new double[a.length];
            double[] e = new double[a.length];
            assertTaken(d.submit(id, new Object[] {a, b}, scalars(f), 0, a.length));
            assertTaken(d.submit(id, new Object[] {b, c}, scalars(f + round), 0, a.length));
            assertTaken(d.submit(id, new Object[] {c, e}, scalars(0.5), 0, a.length));
            assertTaken(d.submit(id, new Object[] {e, b}, scalars(2.0), 0, a.length)); // reuses b: ordering matters
            d.sync();
            double[] eb = expectedScale(a, 0, 0, a.length, f, a.length);
            double[] ec = expectedScale(eb, 0, 0, a.length, f + round, a.length);
            double[] ee = expectedScale(ec, 0, 0, a.length, 0.5, a.length);
            assertArrayEquals(ee, e);
            assertArrayEquals(expectedScale(ee, 0, 0, a.length, 2.0, a.length), b);
          }
        } catch (Throwable x) {
          failures.add(x);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) t.join();
    assertEquals(List.of(), failures);
  }

  @Test
  void deferredLaunchesRunInOrder() {
    LoopDispatcher d = reference();
    int id = site(scale(0), UP, "map");
    double[] a = ramp(10);
    double[] b = new double[10];
    double[] c = new double[10];
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, 10)); // b = a * 2 + 1
    assertTaken(d.submit(id, new Object[] {b, c}, scalars(3.0), 0, 10)); // c = b * 3 + 1 reads the new b
    d.sync();
    assertArrayEquals(expectedScale(expectedScale(a, 0, 0, 10, 2.0, 10), 0, 0, 10, 3.0, 10), c);
  }

  @Test
  void aReductionRunsAtOnceAfterTheQueueAndReturnsItsResult() {
    LoopDispatcher d = reference();
    int map = site(scale(0), UP, "map");
    int sum = site(sum(), UP, "reduce");
    double[] a = ramp(1000);
    double[] b = new double[1000];
    assertTaken(d.submit(map, new Object[] {a, b}, scalars(2.0), 0, 1000));
    long[] s = {Double.doubleToRawLongBits(0.25), 0};
    assertTaken(d.submit(sum, new Object[] {b}, s, 10, 1000));
    double expected = 0.25;
    double[] eb = expectedScale(a, 0, 0, 1000, 2.0, 1000);
    for (int i = 10; i < 1000; i++) expected += eb[i];
    assertEquals(Double.doubleToRawLongBits(expected), s[0], "bit-exact, in Java's order");
    assertEquals(1000, s[1]);
    assertArrayEquals(eb, b, "the map ran before the reduction read b");
  }

  @Test
  void jvmAndReferenceExecutorsAgreeBitForBit() {
    int id = site(scale(1), UP, "map");
    int sum = site(sum(), UP, "reduce");
    double[] a = ramp(50_001);
    double[] viaJvm = new double[50_000];
    double[] viaRef = new double[50_000];
    LoopDispatcher jvm = dispatcher(64, new JvmExecutor(4), new ReferenceExecutor());
    LoopDispatcher ref = reference();
    assertTaken(jvm.submit(id, new Object[] {a, viaJvm}, scalars(1.5), 0, 50_000));
    assertTaken(ref.submit(id, new Object[] {a, viaRef}, scalars(1.5), 0, 50_000));
    jvm.sync();
    ref.sync();
    assertArrayEquals(viaRef, viaJvm);
    long[] s1 = {0, 0};
    long[] s2 = {0, 0};
    assertTaken(jvm.submit(sum, new Object[] {a}, s1, 0, 50_001));
    assertTaken(ref.submit(sum, new Object[] {a}, s2, 0, 50_001));
    assertArrayEquals(s2, s1);
    assertTrue(report().contains("\"executor\":\"jvm\""), report());
  }

  @Test
  void aNegativeStepIsCheckedAtBothEnds() {
    LoopDispatcher d = reference();
    int id = site(scale(0), new LoopShape(Cond.GE, -1), "map");
    double[] a = ramp(10);
    double[] b = new double[10];
    long[] s = scalars(2.0);
    assertTaken(d.submit(id, new Object[] {a, b}, s, 9, 0));
    assertEquals(-1, s[1]);
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, 10, 2.0, 10), b);
    assertDeclined(d.submit(id, new Object[] {a, b}, scalars(2.0), 10, 0));
  }

  @Test
  void anEmptyRangeDoesNothingAndSucceeds() {
    LoopDispatcher d = reference();
    int id = site(scale(0), UP, "map");
    long[] s = scalars(2.0);
    assertTaken(d.submit(id, new Object[] {null, null}, s, 5, 5));
    assertEquals(5, s[1]);
  }

  @Test
  void guardFailuresFallBackWithAReason() {
    LoopDispatcher d = reference();
    int id = site(scale(1), UP, "map");
    double[] a = ramp(10);
    double[] b = new double[10];
    assertDeclined(d.submit(id, new Object[] {null, b}, scalars(1), 0, 9));
    assertTrue(report().contains("array 0 is null"), report());
    assertDeclined(d.submit(id, new Object[] {new float[10], b}, scalars(1), 0, 9));
    assertTrue(report().contains("array 0 is a float[], not a double[]"), report());
    assertDeclined(d.submit(id, new Object[] {a, b}, scalars(1), 0, 10)); // reads a[10]
    assertTrue(report().contains("index out of bounds on array 0"), report());
    assertDeclined(d.submit(id, new Object[] {a, new double[8]}, scalars(1), 0, 9));
    assertTrue(report().contains("index out of bounds on array 1"), report());
    assertDeclined(d.submit(id, new Object[] {a, b}, scalars(1), -1, 9));
    assertDeclined(d.submit(id, new Object[] {b, b}, scalars(1), 0, 9));
    assertTrue(report().contains("array 1 is written and is also array 0"), report());
    assertDeclined(d.submit(id, new Object[] {a}, scalars(1), 0, 9));
    assertDeclined(d.submit(id, new Object[] {a, b}, new long[1], 0, 9));
    assertArrayEquals(new double[10], b, "nothing written by a failed guard");
    assertTrue(report().contains("\"fallback\":8"), report());
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(1), 0, 9));
  }

  @Test
  void unknownSitesAndUncountedLoopsFallBack() {
    LoopDispatcher d = reference();
    assertDeclined(d.submit(12345, new Object[0], new long[1], 0, 10));
    int rejected = sites.register(new LoopSite("com.acme.Foo", "baz", "()V", 57, "loop", null, null, "early exit"));
    assertDeclined(d.submit(rejected, new Object[0], new long[1], 0, 10));
    int id = site(scale(0), new LoopShape(Cond.NE, 2), "map");
    assertDeclined(d.submit(id, new Object[] {ramp(10), new double[10]}, scalars(1), 0, 5)); // never meets 5
  }

  @Test
  void aFallbackFirstRunsTheDeferredWorkTheOriginalLoopMayRead() {
    LoopDispatcher d = reference();
    int id = site(scale(0), UP, "map");
    double[] a = ramp(10);
    double[] b = new double[10];
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, 10));
    assertDeclined(d.submit(id, new Object[] {b, b}, scalars(2.0), 0, 10)); // aliasing: the caller runs its loop
    assertArrayEquals(expectedScale(a, 0, 0, 10, 2.0, 10), b, "visible before the original loop runs");
  }

  @Test
  void aFailingExecutorHandsOverToTheNextAndAnUnsupportingOneIsSkipped() {
    AtomicInteger attempts = new AtomicInteger();
    Executor failing = new Stub("broken", true, () -> {
      attempts.incrementAndGet();
      throw new ExecutionException("no device");
    });
    Executor unsupported = new Stub("picky", false, () -> {
      throw new AssertionError("must not run");
    });
    LoopDispatcher d = dispatcher(64, unsupported, failing, new ReferenceExecutor());
    int id = site(scale(0), UP, "map");
    int sum = site(sum(), UP, "reduce");
    double[] a = ramp(10);
    double[] b = new double[10];
    assertTaken(d.submit(id, new Object[] {a, b}, scalars(2.0), 0, 10));
    d.sync();
    assertArrayEquals(expectedScale(a, 0, 0, 10, 2.0, 10), b);
    long[] s = {0, 0};
    assertTaken(d.submit(sum, new Object[] {a}, s, 0, 10));
    assertEquals(2, attempts.get());
    assertTrue(report().contains("\"executor\":\"reference\""), report());
    assertTrue(lines.stream().anyMatch(l -> l.contains("broken failed on com.acme.Foo.bar:42")), lines.toString());
  }

  @Test
  void whenEveryExecutorFailsAReductionFallsBack() {
    LoopDispatcher d = dispatcher(64, new Stub("broken", true, () -> {
      throw new ExecutionException("no device");
    }));
    int sum = site(sum(), UP, "reduce");
    long[] s = {7, 0};
    assertDeclined(d.submit(sum, new Object[] {ramp(10)}, s, 0, 10));
    assertArrayEquals(new long[] {7, 0}, s, "scalars untouched");
    assertTrue(report().contains("every executor failed"), report());
  }

  @Test
  void eachThreadHasItsOwnQueue() throws InterruptedException {
    LoopDispatcher d = reference();
    int id = site(scale(0), UP, "map");
    double[] a = ramp(10);
    double[] b = new double[10];
    Thread t = new Thread(() -> d.submit(id, new Object[] {a, b}, scalars(2.0), 0, 10));
    t.start();
    t.join();
    d.sync(); // this thread's queue is empty; the other thread's work stays deferred
    assertArrayEquals(new double[10], b);
  }

  /** An executor whose behaviour a test chooses. */
  private static final class Stub implements Executor {
    interface Body { void run() throws ExecutionException; }

    private final String name;
    private final boolean supports;
    private final Body body;

    Stub(String name, boolean supports, Body body) {
      this.name = name;
      this.supports = supports;
      this.body = body;
    }

    @Override public String name() { return name; }
    @Override public boolean supports(LoopTemplate t, ExecutionOptions o) { return supports; }
    @Override public void execute(Launch launch, ExecutionOptions options) throws ExecutionException { body.run(); }
    @Override public void close() {}
  }
}
