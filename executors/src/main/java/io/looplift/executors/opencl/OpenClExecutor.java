package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.DeviceFeatures;
import io.looplift.progen.opencl.OpenClGenerator;
import io.looplift.progen.opencl.OpenClKernel;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Runs launches as OpenCL kernels on one device, which a {@link DeviceLink} reaches: in the program's JVM,
 * the OpenCL host process. This class loads no driver and no JOCL class; it decides what runs and how, and
 * the device side only builds programs, moves bytes and runs kernels.
 *
 * <p>Per launch: the kernel from {@link OpenClGenerator}, generated once per template; the arrays staged in
 * shared memory; parameters as kernel arguments; an NDRange over the trips in work-groups of a fixed size;
 * one partial per work-group and reduction, combined here in work-group order starting from the launch's
 * initial accumulator values ({@link io.looplift.ir.ReduceOp#combine}). Results are copied from shared
 * memory into the program's arrays and accumulators only once the device side reported success: an
 * {@link ExecutionException} leaves everything untouched, so the caller can run the launch elsewhere. Written
 * arrays are copied back only over the range of indices their stores can reach.
 *
 * <p>Reductions: integer operators, MIN/MAX and SELECT_* are exact, since the work-item, work-group and
 * host levels each combine in iteration order. Float and double ADD/MUL (only with
 * {@code reductions=reassociate}) sum in that tree order instead of Java's left-to-right order; a sum of
 * {@code n} terms then differs from Java's by at most {@code 2 (n - 1) u sum|x|} ({@code u} = 2^-24 for
 * float, 2^-53 for double), the classical bound for any summation order.
 *
 * <p>Thread-safe: launches from many threads share the kernel cache and the link.
 */
public final class OpenClExecutor implements Executor {
  /** The executor's name in options and the report. */
  public static final String NAME = "opencl";

  private static final int MAX_WORK_GROUP = 64;
  /** Reductions use at most this many work-groups, so the host combines few partials. */
  private static final int MAX_REDUCTION_GROUPS = 4096;
  private static final int MAX_KERNELS = 256;

  private final DeviceInfo device;
  private final DeviceFeatures features;
  private final DeviceLink link;
  private final int workGroupSize;
  private final Map<LoopTemplate, OpenClKernel> kernels = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<LoopTemplate, OpenClKernel> eldest) {
      return size() > MAX_KERNELS;
    }
  }; // guarded by itself
  private final LongAdder launches = new LongAdder();
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
    LoopTemplate template = launch.template();
    Optional<String> why = OpenClGenerator.rejection(template, options.reassociate(), options.ulp(), features);
    if (why.isPresent()) throw new ExecutionException("opencl cannot run this loop: " + why.get());
    if (launch.trips() == 0) return;
    lifecycle.readLock().lock();
    try {
      if (closed) throw new ExecutionException("opencl executor closed");
      run(launch, kernel(template));
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** The kernel of {@code t}, generated on its first launch. */
  private OpenClKernel kernel(LoopTemplate t) {
    synchronized (kernels) {
      OpenClKernel k = kernels.get(t);
      if (k != null) return k;
    }
    OpenClKernel generated = OpenClGenerator.generate(t, workGroupSize);
    synchronized (kernels) {
      OpenClKernel raced = kernels.putIfAbsent(t, generated);
      return raced != null ? raced : generated;
    }
  }

  /** Stages the arrays, runs the kernel through the link, and only then writes the results back. */
  private void run(Launch launch, OpenClKernel kernel) throws ExecutionException {
    LoopTemplate t = launch.template();
    int arrays = t.arrays().size();
    int trips = launch.trips();
    int chunk = t.reductions().isEmpty() ? 1 : (int) Math.max(1, ceilDiv(trips, (long) workGroupSize * MAX_REDUCTION_GROUPS));
    long groups = ceilDiv(ceilDiv(trips, chunk), workGroupSize);

    long[] blockBytes = new long[arrays + t.reductions().size()];
    for (int a = 0; a < arrays; a++) {
      Object host = launch.arrays()[a];
      // OpenCL has no empty buffers: an empty array gets one unused element.
      blockBytes[a] = (long) Math.max(1, Array.getLength(host)) * StagedArrays.elementSize(host);
    }
    for (int r = 0; r < t.reductions().size(); r++) blockBytes[arrays + r] = groups * t.reductions().get(r).type().byteSize();

    try (Staging staging = link.stage(blockBytes)) {
      List<KernelLaunch.Arg> args = new ArrayList<>();
      int[][] written = new int[arrays][];
      for (int a = 0; a < arrays; a++) {
        Object host = launch.arrays()[a];
        Staging.Block block = staging.block(a);
        StagedArrays.upload(host, block);
        int size = StagedArrays.elementSize(host);
        written[a] = t.writes(a) ? writtenRange(launch, a) : null;
        long from = written[a] == null ? 0 : (long) written[a][0] * size;
        long length = written[a] == null ? 0 : (long) (written[a][1] - written[a][0]) * size;
        args.add(new KernelLaunch.Buffer(block.pieces(), true, t.writes(a), from, length));
      }
      for (int p = 0; p < t.params().size(); p++) {
        args.add(new KernelLaunch.Scalar(t.params().get(p).stackType(), launch.params()[p]));
      }
      for (int r = 0; r < t.reductions().size(); r++) {
        Staging.Block block = staging.block(arrays + r);
        args.add(new KernelLaunch.Buffer(block.pieces(), false, true, 0, blockBytes[arrays + r]));
      }
      for (int scalar : new int[] {launch.start(), launch.step(), trips, chunk}) {
        args.add(new KernelLaunch.Scalar(Type.INT, scalar));
      }
      LaunchTimings timings = link.launch(kernel, new KernelLaunch(args, groups * workGroupSize, workGroupSize));

      // The device side succeeded: from here on the results become the program's.
      for (int a = 0; a < arrays; a++) {
        if (written[a] != null) StagedArrays.download(staging.block(a), launch.arrays()[a], written[a][0], written[a][1]);
      }
      for (int r = 0; r < t.reductions().size(); r++) combine(t.reductions().get(r), staging.block(arrays + r), (int) groups, launch);
      launches.increment();
      kernelNanos.add(timings.kernelNanos());
    }
  }

  /** Folds the work-groups' partials of {@code red} into its accumulator, in work-group order. */
  private static void combine(Reduction red, Staging.Block block, int groups, Launch launch) {
    Object partials = switch (red.type()) {
      case LONG -> new long[groups];
      case FLOAT -> new float[groups];
      case DOUBLE -> new double[groups];
      default -> new int[groups];
    };
    StagedArrays.download(block, partials, 0, groups);
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

  /**
   * The index range {@code [from, to)} that the stores into array {@code a} can touch: from the two ends of
   * each affine store index, else the whole array; null when there is none.
   */
  private static int[] writtenRange(Launch launch, int a) {
    int length = Array.getLength(launch.arrays()[a]);
    if (length == 0) return null;
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    long first = launch.start();
    long last = launch.start() + (long) (launch.trips() - 1) * launch.step();
    Interpreter interpreter = new Interpreter(launch.arrays(), launch.params(), launch.accumulators().clone());
    for (Store s : launch.template().stores()) {
      if (s.array() != a) continue;
      AffineIndex index = AffineIndex.of(s.index());
      if (index == null) return new int[] {0, length};
      long offset = (int) interpreter.evaluate(index.offset(), launch.start());
      long e0 = index.scale() * (int) first + offset;
      long e1 = index.scale() * (int) last + offset;
      lo = Math.min(lo, Math.min(e0, e1));
      hi = Math.max(hi, Math.max(e0, e1));
    }
    lo = Math.max(0, lo);
    hi = Math.min(length - 1, hi);
    return lo > hi ? null : new int[] {(int) lo, (int) hi + 1};
  }

  private static long ceilDiv(long x, long y) {
    return (x + y - 1) / y;
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
