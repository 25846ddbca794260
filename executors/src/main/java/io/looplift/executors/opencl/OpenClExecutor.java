package io.looplift.executors.opencl;

import static org.jocl.CL.*;

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
import io.looplift.tracecache.DiskProgramStore;
import io.looplift.tracecache.ProgramBuildException;
import io.looplift.tracecache.ProgramCache;
import io.looplift.tracecache.ProgramKey;
import io.looplift.tracecache.ProgramLease;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * Runs launches as OpenCL kernels on one device, through one context and one in-order command queue.
 *
 * <p>Per launch: the kernel from {@link OpenClGenerator} (its program from the {@link ProgramCache}: memory,
 * then device binaries on disk, then the compiler); one buffer per array, initialized from the host array;
 * parameters as kernel arguments; an NDRange over the trips in work-groups of a fixed size; one partial per
 * work-group and reduction, combined on the host in work-group order starting from the launch's initial
 * accumulator values ({@link io.looplift.ir.ReduceOp#combine}). Results are read into temporary host
 * buffers and copied into the program's arrays and the accumulators only once every OpenCL call has
 * succeeded: an {@link ExecutionException} leaves everything untouched, so the caller can run the launch
 * elsewhere. Written arrays are copied back only over the range of indices their stores can reach.
 *
 * <p>Reductions: integer operators, MIN/MAX and SELECT_* are exact, since the work-item, work-group and
 * host levels each combine in iteration order. Float and double ADD/MUL (only with
 * {@code reductions=reassociate}) sum in that tree order instead of Java's left-to-right order; a sum of
 * {@code n} terms then differs from Java's by at most {@code 2 (n - 1) u sum|x|} ({@code u} = 2^-24 for
 * float, 2^-53 for double), the classical bound for any summation order.
 *
 * <p>Thread-safe: launches from many threads share the program cache and queue; each creates its own
 * kernel object and buffers, released before it returns.
 */
public final class OpenClExecutor implements Executor {
  /** The executor's name in options and the report. */
  public static final String NAME = "opencl";

  private static final int MAX_WORK_GROUP = 64;
  /** Reductions use at most this many work-groups, so the host combines few partials. */
  private static final int MAX_REDUCTION_GROUPS = 4096;
  private static final int MAX_PROGRAMS = 256;

  private final DeviceInfo device;
  private final DeviceFeatures features;
  private final cl_device_id deviceId;
  private final cl_context context;
  private final cl_command_queue queue;
  private final ProgramCache<cl_program> programs;
  private final String version;
  private final int workGroupSize;
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed; // guarded by lifecycle's write lock

  /** An executor on {@code device} with programs cached in {@link DiskProgramStore#defaultDirectory()}. */
  public OpenClExecutor(DeviceInfo device) throws ExecutionException {
    this(device, DiskProgramStore.atDefaultLocation(), defaultVersion());
  }

  /**
   * An executor on {@code device}.
   *
   * @param disk where program binaries persist across runs, or null for none
   * @param version the LoopLift version, part of every program's cache key
   * @throws ExecutionException when the device cannot be opened
   */
  public OpenClExecutor(DeviceInfo device, DiskProgramStore disk, String version) throws ExecutionException {
    this.device = device;
    this.features = device.features();
    this.version = version;
    this.workGroupSize = Integer.highestOneBit((int) Math.max(1, Math.min(MAX_WORK_GROUP, device.maxWorkGroupSize())));
    cl_context ctx = null;
    try {
      DeviceInventory.Handles handles = DeviceInventory.locate(device);
      this.deviceId = handles.device();
      cl_context_properties properties = new cl_context_properties();
      properties.addProperty(CL_CONTEXT_PLATFORM, handles.platform());
      ctx = clCreateContext(properties, 1, new cl_device_id[] {deviceId}, null, null, null);
      this.queue = createQueue(ctx, deviceId);
      this.context = ctx;
    } catch (Throwable t) { // UnsatisfiedLinkError, CLException, a device that went away
      cl_context opened = ctx;
      if (opened != null) quietly(() -> clReleaseContext(opened));
      throw new ExecutionException("cannot open OpenCL device " + device.name() + ": " + DeviceInventory.oneLine(t), t);
    }
    this.programs = new ProgramCache<>(MAX_PROGRAMS, disk, p -> quietly(() -> clReleaseProgram(p)));
  }

  /**
   * An executor on the device {@code selector} picks from {@link DeviceInventory#discover()} (see
   * {@link DeviceInventory#select}: the value of {@code opencl.device}).
   *
   * @throws ExecutionException when there is no such device or it cannot be opened
   */
  public static OpenClExecutor open(String selector, DiskProgramStore disk, String version) throws ExecutionException {
    DeviceInventory inventory = DeviceInventory.discover();
    Optional<DeviceInfo> device = inventory.select(selector);
    if (device.isEmpty()) {
      throw new ExecutionException("no OpenCL device matches '" + (selector == null ? "" : selector) + "' (" + inventory.reason() + ")");
    }
    return new OpenClExecutor(device.get(), disk, version);
  }

  @SuppressWarnings("deprecation") // clCreateCommandQueue is the call OpenCL 1.x devices understand
  private static cl_command_queue createQueue(cl_context ctx, cl_device_id id) {
    return clCreateCommandQueue(ctx, id, 0, null);
  }

  private static String defaultVersion() {
    String v = OpenClExecutor.class.getPackage().getImplementationVersion();
    return v != null ? v : "dev";
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The device this executor runs on. */
  public DeviceInfo device() {
    return device;
  }

  /** Program cache counters (memory hits, disk hits, compiles) for the report. */
  public ProgramCache.Stats programStats() {
    return programs.stats();
  }

  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) {
    return OpenClGenerator.supports(template, options.reassociate(), options.ulp(), features);
  }

  @Override
  public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
    LoopTemplate template = launch.template();
    Optional<String> why = OpenClGenerator.rejection(template, options.reassociate(), options.ulp(), features);
    if (why.isPresent()) throw new ExecutionException("opencl cannot run this loop: " + why.get());
    if (launch.trips() == 0) return;
    Results results;
    lifecycle.readLock().lock();
    try {
      if (closed) throw new ExecutionException("opencl executor closed");
      results = run(launch);
    } catch (ProgramBuildException | RuntimeException e) { // CLException, or a device that went away
      throw new ExecutionException("opencl launch failed on " + device.name() + ": " + DeviceInventory.oneLine(e), e);
    } finally {
      lifecycle.readLock().unlock();
    }
    results.writeBack(launch);
  }

  /** Runs the launch on the device and reads every result into host memory; writes nothing of the launch's. */
  private Results run(Launch launch) throws ProgramBuildException {
    LoopTemplate t = launch.template();
    OpenClKernel k = OpenClGenerator.generate(t, workGroupSize);
    ProgramKey key = new ProgramKey(k.source(), device.name(), device.driverVersion(), k.buildOptions(), version);
    List<cl_mem> buffers = new ArrayList<>();
    cl_kernel kernel = null;
    try (ProgramLease<cl_program> lease = programs.acquire(key, new Compiler(k))) {
      kernel = clCreateKernel(lease.program(), k.name(), null);
      int arg = 0;
      cl_mem[] arrays = new cl_mem[t.arrays().size()];
      for (int a = 0; a < arrays.length; a++) {
        arrays[a] = arrayBuffer(t.arrays().get(a), launch.arrays()[a], t.writes(a));
        buffers.add(arrays[a]);
        clSetKernelArg(kernel, arg++, Sizeof.cl_mem, Pointer.to(arrays[a]));
      }
      for (int p = 0; p < t.params().size(); p++) setScalar(kernel, arg++, t.params().get(p), launch.params()[p]);

      int trips = launch.trips();
      int chunk = t.reductions().isEmpty() ? 1 : (int) Math.max(1, ceilDiv(trips, (long) workGroupSize * MAX_REDUCTION_GROUPS));
      long items = ceilDiv(trips, chunk);
      long groups = ceilDiv(items, workGroupSize);
      cl_mem[] partials = new cl_mem[t.reductions().size()];
      for (int r = 0; r < partials.length; r++) {
        partials[r] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, groups * t.reductions().get(r).type().byteSize(), null, null);
        buffers.add(partials[r]);
        clSetKernelArg(kernel, arg++, Sizeof.cl_mem, Pointer.to(partials[r]));
      }
      for (int scalar : new int[] {launch.start(), launch.step(), trips, chunk}) {
        clSetKernelArg(kernel, arg++, Sizeof.cl_int, Pointer.to(new int[] {scalar}));
      }
      clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {groups * workGroupSize}, new long[] {workGroupSize}, 0, null, null);

      Results results = new Results(t.arrays().size(), partials.length);
      for (int a = 0; a < arrays.length; a++) {
        if (!t.writes(a)) continue;
        int[] range = writtenRange(launch, a);
        if (range == null) continue;
        Type type = t.arrays().get(a);
        Object tmp = newHostArray(type, range[1] - range[0]);
        clEnqueueReadBuffer(queue, arrays[a], CL_TRUE, (long) range[0] * type.byteSize(), (long) Array.getLength(tmp) * type.byteSize(),
            pointerTo(tmp), 0, null, null);
        results.arrays[a] = tmp;
        results.from[a] = range[0];
      }
      for (int r = 0; r < partials.length; r++) {
        Type type = t.reductions().get(r).type();
        Object tmp = newHostArray(type, (int) groups);
        clEnqueueReadBuffer(queue, partials[r], CL_TRUE, 0, groups * type.byteSize(), pointerTo(tmp), 0, null, null);
        results.partials[r] = tmp;
      }
      return results;
    } finally {
      if (kernel != null) {
        cl_kernel kk = kernel;
        quietly(() -> clReleaseKernel(kk));
      }
      for (cl_mem m : buffers) quietly(() -> clReleaseMemObject(m));
    }
  }

  /** A device copy of {@code host}; at least one element, since OpenCL has no empty buffers. */
  private cl_mem arrayBuffer(Type type, Object host, boolean written) {
    int length = Array.getLength(host);
    long flags = written ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
    if (length == 0) return clCreateBuffer(context, flags, type.byteSize(), null, null);
    Object data = host;
    if (type == Type.BOOLEAN) {
      boolean[] b = (boolean[]) host;
      byte[] bytes = new byte[length];
      for (int j = 0; j < length; j++) bytes[j] = (byte) (b[j] ? 1 : 0);
      data = bytes;
    }
    return clCreateBuffer(context, flags | CL_MEM_COPY_HOST_PTR, (long) length * type.byteSize(), pointerTo(data), null);
  }

  private static void setScalar(cl_kernel kernel, int arg, Type type, long bits) {
    switch (type) {
      case LONG -> clSetKernelArg(kernel, arg, Sizeof.cl_long, Pointer.to(new long[] {bits}));
      case FLOAT -> clSetKernelArg(kernel, arg, Sizeof.cl_float, Pointer.to(new float[] {Float.intBitsToFloat((int) bits)}));
      case DOUBLE -> clSetKernelArg(kernel, arg, Sizeof.cl_double, Pointer.to(new double[] {Double.longBitsToDouble(bits)}));
      default -> clSetKernelArg(kernel, arg, Sizeof.cl_int, Pointer.to(new int[] {(int) bits}));
    }
  }

  /**
   * The index range {@code [from, to)} that the stores into array {@code a} can touch: from the two ends of
   * each affine store index, else the whole array; null when the array is empty.
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

  private static Object newHostArray(Type type, int length) {
    return switch (type) {
      case BOOLEAN, BYTE -> new byte[length];
      case CHAR -> new char[length];
      case SHORT -> new short[length];
      case INT -> new int[length];
      case LONG -> new long[length];
      case FLOAT -> new float[length];
      case DOUBLE -> new double[length];
    };
  }

  private static Pointer pointerTo(Object array) {
    if (array instanceof byte[] b) return Pointer.to(b);
    if (array instanceof char[] c) return Pointer.to(c);
    if (array instanceof short[] s) return Pointer.to(s);
    if (array instanceof int[] i) return Pointer.to(i);
    if (array instanceof long[] l) return Pointer.to(l);
    if (array instanceof float[] f) return Pointer.to(f);
    if (array instanceof double[] d) return Pointer.to(d);
    throw new IllegalArgumentException("not a primitive array buffer: " + array.getClass());
  }

  /** Everything a launch computed, in host memory, not yet visible to the program. */
  private static final class Results {
    final Object[] arrays;
    final int[] from;
    final Object[] partials;

    Results(int arrayCount, int reductionCount) {
      arrays = new Object[arrayCount];
      from = new int[arrayCount];
      partials = new Object[reductionCount];
    }

    /** Copies written ranges into the launch's arrays and combines partials into its accumulators. */
    void writeBack(Launch launch) {
      LoopTemplate t = launch.template();
      for (int a = 0; a < arrays.length; a++) {
        if (arrays[a] == null) continue;
        Object host = launch.arrays()[a];
        if (host instanceof boolean[] b) {
          byte[] bytes = (byte[]) arrays[a];
          for (int j = 0; j < bytes.length; j++) b[from[a] + j] = (bytes[j] & 1) != 0;
        } else {
          System.arraycopy(arrays[a], 0, host, from[a], Array.getLength(arrays[a]));
        }
      }
      for (int r = 0; r < partials.length; r++) {
        Reduction red = t.reductions().get(r);
        long acc = launch.accumulators()[red.acc()];
        Object p = partials[r];
        for (int w = 0, n = Array.getLength(p); w < n; w++) acc = red.op().combine(red.type(), acc, bits(p, w));
        launch.accumulators()[red.acc()] = acc;
      }
    }

    private static long bits(Object partials, int w) {
      if (partials instanceof int[] i) return i[w];
      if (partials instanceof long[] l) return l[w];
      if (partials instanceof float[] f) return Float.floatToRawIntBits(f[w]);
      return Double.doubleToRawLongBits(((double[]) partials)[w]);
    }
  }

  /** Builds programs for this executor's context and device, from source or from a cached binary. */
  private final class Compiler implements ProgramCache.Compiler<cl_program> {
    private final OpenClKernel kernel;

    Compiler(OpenClKernel kernel) {
      this.kernel = kernel;
    }

    @Override
    public cl_program compile(ProgramKey key) {
      return build(clCreateProgramWithSource(context, 1, new String[] {kernel.source()}, null, null));
    }

    @Override
    public cl_program load(ProgramKey key, byte[] binary) {
      int[] status = new int[1];
      return build(clCreateProgramWithBinary(context, 1, new cl_device_id[] {deviceId}, new long[] {binary.length},
          new byte[][] {binary}, status, null));
    }

    private cl_program build(cl_program program) {
      try {
        clBuildProgram(program, 1, new cl_device_id[] {deviceId}, kernel.buildOptions(), null, null);
        return program;
      } catch (CLException e) {
        String log = buildLog(program);
        quietly(() -> clReleaseProgram(program));
        throw new CLException(e.getMessage() + ": " + log, e, e.getStatus());
      } catch (RuntimeException e) {
        quietly(() -> clReleaseProgram(program));
        throw e;
      }
    }

    @Override
    public byte[] binary(cl_program program) {
      long[] size = new long[1];
      clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, Sizeof.size_t, Pointer.to(size), null);
      byte[] binary = new byte[(int) size[0]];
      clGetProgramInfo(program, CL_PROGRAM_BINARIES, Sizeof.POINTER, Pointer.to(Pointer.to(binary)), null);
      return binary;
    }
  }

  private String buildLog(cl_program program) {
    try {
      long[] size = new long[1];
      clGetProgramBuildInfo(program, deviceId, CL_PROGRAM_BUILD_LOG, 0, null, size);
      byte[] log = new byte[(int) size[0]];
      clGetProgramBuildInfo(program, deviceId, CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
      return new String(log, StandardCharsets.UTF_8).trim();
    } catch (RuntimeException e) {
      return "(no build log: " + DeviceInventory.oneLine(e) + ")";
    }
  }

  /** Runs a release call whose failure cannot be acted on (the launch's results are already safe). */
  private static void quietly(Runnable release) {
    try {
      release.run();
    } catch (RuntimeException e) {
      // Leaked at worst; never a reason to fail a launch or close.
    }
  }

  private static long ceilDiv(long x, long y) {
    return (x + y - 1) / y;
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      programs.close();
      quietly(() -> clReleaseCommandQueue(queue));
      quietly(() -> clReleaseContext(context));
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "opencl on " + device;
  }

}
