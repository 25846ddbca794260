package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.DeviceFeatures;
import io.looplift.progen.opencl.KernelLayout;
import io.looplift.progen.opencl.OpenClGenerator;
import io.looplift.progen.opencl.OpenClKernel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Runs launches as OpenCL kernels on one device, which a {@link DeviceLink} reaches: in the program's JVM,
 * the OpenCL host process. This class loads no driver and no JOCL class; it decides what runs and how, and
 * the device side only builds programs, moves bytes and runs kernels.
 *
 * <p>Per launch: the kernel from {@link OpenClGenerator}, generated once per template; the arrays staged in
 * shared memory, each once ({@link ArrayArgument}: an array of arrays as its rows' elements one after another
 * and a table of where each row starts); parameters as kernel arguments; the NDRange its
 * {@link KernelLayout} gives ({@link LaunchGeometry}); for reductions, one partial per work-group, combined
 * here in work-group order starting from the launch's initial accumulator values
 * ({@link io.looplift.ir.ReduceOp#combine}). One kernel runs the whole launch, inner loops and all, with no
 * round trip in between. Results are copied from shared memory into the program's arrays and accumulators
 * only once the device side reported success: an {@link ExecutionException} leaves everything untouched, so
 * the caller can run the launch elsewhere. Written arrays are copied back only over the elements their
 * stores can reach ({@link Reach}).
 *
 * <p>Reductions across the outermost loop: integer operators, MIN/MAX and SELECT_* are exact, since the
 * work-item, work-group and host levels each combine in iteration order. Float and double ADD/MUL (only with
 * {@code reductions=reassociate}) sum in that tree order instead of Java's left-to-right order; a sum of
 * {@code n} terms then differs from Java's by at most {@code 2 (n - 1) u sum|x|} ({@code u} = 2^-24 for
 * float, 2^-53 for double), the classical bound for any summation order. Values an inner loop carries are
 * computed in Java's order inside one work item, and are always exact.
 *
 * <p>Thread-safe: launches from many threads share the kernel cache and the link.
 */
public final class OpenClExecutor implements Executor {
  /** The executor's name in options and the report. */
  public static final String NAME = "opencl";

  private static final int MAX_WORK_GROUP = 64;
  private static final int MAX_KERNELS = 256;

  private final DeviceInfo device;
  private final DeviceFeatures features;
  private final DeviceLink link;
  private final int workGroupSize;
  private final Map<LoopTemplate, Compiled> kernels = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<LoopTemplate, Compiled> eldest) {
      return size() > MAX_KERNELS;
    }
  }; // guarded by itself
  private final LongAdder launches = new LongAdder();
  private final AtomicLong handles = new AtomicLong();
  private final AtomicInteger lanes = new AtomicInteger();
  private final LongAdder kernelNanos = new LongAdder();
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed; // guarded by lifecycle's write lock

  /** An executor on {@code device}, which {@code link} reaches; the executor owns the link. */
  public OpenClExecutor(DeviceInfo device, DeviceLink link) {
    this.device = device;
    this.features = device.features();
    this.link = link;
    this.workGroupSize = Integer.highestOneBit((int) Math.max(1, Math.min(MAX_WORK_GROUP, device.maxWorkGroupSize())));
  }

  @Override
  public String name() {
    return NAME;
  }

  /** How many launches ran on the device, and the device time their kernels took in total. */
  public record Totals(long launches, long kernelNanos) {}

  /** The launches that completed so far. */
  public Totals totals() {
    return new Totals(launches.sum(), kernelNanos.sum());
  }

  /** False once the device is out of reach for good, so that loops go to the next executor at once. */
  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) {
    return link.usable() && OpenClGenerator.supports(template, options.reassociate(), options.ulp(), features);
  }

  @Override
  public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
    execute(launch, options, null);
  }

  /** A session keeping a flush's arrays on this executor's device between its launches. */
  @Override
  public FlushSession session() {
    return session(DeviceSession.MAX_KEPT_BYTES);
  }

  /** A session keeping at most {@code maxKeptBytes} of arrays on the device. */
  DeviceSession session(long maxKeptBytes) {
    return new DeviceSession(this, link, maxKeptBytes);
  }

  /** A handle for a buffer the device keeps, unique on this executor's link. */
  long nextHandle() {
    return handles.incrementAndGet();
  }

  /** A lane for a session's launches, other than 0. */
  int nextLane() {
    int lane;
    do {
      lane = lanes.incrementAndGet();
    } while (lane == 0);
    return lane;
  }

  /** Runs {@code launch}, with its arrays kept by {@code session} unless that is null. */
  void execute(Launch launch, ExecutionOptions options, DeviceSession session) throws ExecutionException {
    LoopTemplate template = launch.template();
    Optional<String> why = OpenClGenerator.rejection(template, options.reassociate(), options.ulp(), features);
    if (why.isPresent()) throw new ExecutionException("opencl cannot run this loop: " + why.get());
    if (launch.trips() == 0) return;
    lifecycle.readLock().lock();
    try {
      if (closed) throw new ExecutionException("opencl executor closed");
      run(launch, kernel(template), session);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** A template's kernel and the loops its work items stand for. */
  private record Compiled(OpenClKernel kernel, KernelLayout layout) {}

  /** The kernel of {@code t}, generated on its first launch. */
  private Compiled kernel(LoopTemplate t) {
    synchronized (kernels) {
      Compiled k = kernels.get(t);
      if (k != null) return k;
    }
    Compiled generated = new Compiled(OpenClGenerator.generate(t, workGroupSize), KernelLayout.of(t));
    synchronized (kernels) {
      Compiled raced = kernels.putIfAbsent(t, generated);
      return raced != null ? raced : generated;
    }
  }

  /**
   * Stages the arrays, runs the kernel through the link, and only then writes the results back; with a
   * {@code session}, the arrays are the session's and only it reads them back, later.
   */
  private void run(Launch launch, Compiled compiled, DeviceSession session) throws ExecutionException {
    LaunchGeometry geometry = LaunchGeometry.of(compiled.layout(), launch, workGroupSize);
    if (geometry.empty()) return;
    LoopTemplate t = launch.template();
    Reach reach = new Reach(launch);
    List<ArrayArgument> arrays = new ArrayList<>();
    List<Long> blockBytes = new ArrayList<>();
    for (int a = 0; a < t.arrays().size(); a++) {
      ArrayArgument argument = ArrayArgument.of(launch, a, reach);
      arrays.add(argument);
      if (session != null) continue;
      for (long bytes : argument.blockBytes()) blockBytes.add(bytes);
    }
    int partialsFrom = blockBytes.size();
    for (Reduction r : t.reductions()) blockBytes.add((long) geometry.groups() * r.type().byteSize());

    try (Staging staging = link.stage(blockBytes.stream().mapToLong(Long::longValue).toArray())) {
      List<KernelLaunch.Arg> args = new ArrayList<>();
      List<List<Staging.Block>> blocks = new ArrayList<>();
      // A session takes no arrays of arrays: its arguments are plain arrays, in its own memory.
      List<PlainArray> kept = session == null ? null : arrays.stream().map(PlainArray.class::cast).toList();
      if (kept != null) {
        args.addAll(session.buffers(kept));
      } else {
        int next = 0;
        for (ArrayArgument argument : arrays) {
          List<Staging.Block> own = new ArrayList<>();
          for (int b = 0; b < argument.blockBytes().length; b++) own.add(staging.block(next++));
          blocks.add(own);
          args.addAll(argument.stage(own));
        }
      }
      for (int p = 0; p < t.params().size(); p++) {
        args.add(new KernelLaunch.Scalar(t.params().get(p).stackType(), launch.params()[p]));
      }
      for (int r = 0; r < t.reductions().size(); r++) {
        Staging.Block block = staging.block(partialsFrom + r);
        args.add(new KernelLaunch.Buffer(block.pieces(), false, true, 0, blockBytes.get(partialsFrom + r)));
      }
      for (int scalar : geometry.scalars()) args.add(new KernelLaunch.Scalar(Type.INT, scalar));
      KernelLaunch kernelLaunch = new KernelLaunch(args, geometry.range());
      if (session != null && t.reductions().isEmpty()) {
        // Nothing to copy back now: the next launch may go before this one has run.
        session.started(launch, link.start(compiled.kernel(), kernelLaunch, session.lane()), transferBytes(args), kept);
        return;
      }
      if (session != null) session.settle(); // the accumulators are the caller's at once, from what ran before
      LaunchTimings timings = link.start(compiled.kernel(), kernelLaunch, session == null ? 0 : session.lane()).await();
      completed(launch, timings, transferBytes(args));

      // The device side succeeded: from here on the results become the program's (or the session's).
      if (session != null) {
        session.ran(kept);
      } else {
        for (int a = 0; a < arrays.size(); a++) arrays.get(a).collect(blocks.get(a));
      }
      for (int r = 0; r < t.reductions().size(); r++) {
        combine(t.reductions().get(r), staging.block(partialsFrom + r), geometry.groups(), launch);
      }
    }
  }

  /** Records what {@code launch}, which completed on the device in {@code timings}, spent and moved. */
  void completed(Launch launch, LaunchTimings timings, long transferBytes) {
    launch.spent(timings.programNanos(), timings.transferInNanos() + timings.transferOutNanos(), transferBytes,
        timings.kernelNanos());
    launches.increment();
    kernelNanos.add(timings.kernelNanos());
  }

  /** The bytes a launch with {@code args} copies to the device and back. */
  private static long transferBytes(List<KernelLaunch.Arg> args) {
    long bytes = 0;
    for (KernelLaunch.Arg a : args) {
      if (a instanceof KernelLaunch.Buffer b) bytes += (b.upload() ? b.bytes() : 0) + b.readLength();
    }
    return bytes;
  }

  /** Folds the work-groups' partials of {@code red} into its accumulator, in work-group order. */
  private static void combine(Reduction red, Staging.Block block, int groups, Launch launch) {
    Object partials = switch (red.type()) {
      case LONG -> new long[groups];
      case FLOAT -> new float[groups];
      case DOUBLE -> new double[groups];
      default -> new int[groups];
    };
    StagedArrays.download(block, 0, partials, 0, groups);
    long acc = launch.accumulators()[red.acc()];
    for (int w = 0; w < groups; w++) acc = red.op().combine(red.type(), acc, bits(partials, w));
    launch.accumulators()[red.acc()] = acc;
  }

  private static long bits(Object partials, int w) {
    if (partials instanceof int[] i) return i[w];
    if (partials instanceof long[] l) return l[w];
    if (partials instanceof float[] f) return Float.floatToRawIntBits(f[w]);
    return Double.doubleToRawLongBits(((double[]) partials)[w]);
  }

  /** Waits for the launches in flight, then closes the link. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      link.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "opencl on " + device;
  }
}
