package io.looplift.executors.opencl.device;

import static org.jocl.CL.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.opencl.DeviceInfo;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.LaunchTimings;
import io.looplift.executors.opencl.OneLine;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.OpenClKernel;
import io.looplift.tracecache.DiskProgramStore;
import io.looplift.tracecache.ProgramBuildException;
import io.looplift.tracecache.ProgramCache;
import io.looplift.tracecache.ProgramKey;
import io.looplift.tracecache.ProgramLease;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
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
 * One OpenCL device opened through JOCL: a context, command queues, and its programs cached in memory and as
 * device binaries on disk ({@link ProgramCache}). Runs {@link KernelLaunch}es over shared memory. Loads the
 * driver: this runs in the OpenCL host process (and in the tests of the device code).
 *
 * <p>Per launch: the program from the cache (memory, then a binary on disk, then the compiler); one buffer per
 * {@link KernelLaunch.Buffer}, filled from its pieces; the kernel; the read-back ranges copied into the pieces.
 * Each phase ends with {@code clFinish}, so that {@link LaunchTimings} says where the time went. A buffer
 * with a {@link KernelLaunch.Buffer#kept} handle outlives its launch: a later launch or {@link #read} naming
 * the handle finds it, until {@link #release}.
 *
 * <p>A device that does not share the host's memory (a discrete GPU) moves large pieces through pinned host
 * memory ({@link PinnedTransfers}), each concurrent launch through its own; others copy straight from shared
 * memory.
 *
 * <p>Thread-safe: concurrent launches share the program cache and take a command queue each, so that one
 * launch's {@code clFinish} waits for nothing of another's.
 */
public final class OpenClDevice implements AutoCloseable {
  private static final int MAX_PROGRAMS = 256;
  /** The size of each half of a launch's pinned memory. */
  static final int PINNED_HALF = 8 << 20;

  private final DeviceInfo info;
  private final String version;
  private final cl_device_id deviceId;
  private final cl_context context;
  private final ProgramCache<cl_program> programs;
  private final ConcurrentLinkedDeque<cl_command_queue> idleQueues = new ConcurrentLinkedDeque<>();
  private final ConcurrentLinkedDeque<PinnedTransfers> idlePinned = new ConcurrentLinkedDeque<>();
  /** Half of each launch's pinned memory; 0 when transfers copy straight from shared memory. */
  private volatile int pinnedHalf;
  /** Buffers kept between launches, by handle. */
  private final Map<Long, Kept> kept = new ConcurrentHashMap<>();
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed; // guarded by lifecycle's write lock

  /**
   * Opens {@code info}'s device.
   *
   * @param disk where program binaries persist across runs, or null for none
   * @param version the LoopLift version, part of every program's cache key
   * @throws ExecutionException when the device cannot be opened
   */
  public OpenClDevice(DeviceInfo info, DiskProgramStore disk, String version) throws ExecutionException {
    this(info, disk, version, -1);
  }

  /**
   * Opens {@code info}'s device with transfers through pinned memory in halves of {@code pinnedHalf} bytes (0:
   * never), whatever the device; -1 decides as the device needs. Pieces under a sixteenth of a half are
   * copied directly. For tests, which force pinned transfers in small halves on any device.
   */
  public OpenClDevice(DeviceInfo info, DiskProgramStore disk, String version, int pinnedHalf)
      throws ExecutionException {
    this.info = info;
    this.version = version;
    try {
      DeviceDiscovery.Handles handles = DeviceDiscovery.locate(info);
      this.deviceId = handles.device();
      cl_context_properties properties = new cl_context_properties();
      properties.addProperty(CL_CONTEXT_PLATFORM, handles.platform());
      this.context = clCreateContext(properties, 1, new cl_device_id[] {deviceId}, null, null, null);
      this.pinnedHalf = pinnedHalf >= 0 ? pinnedHalf : sharesHostMemory(deviceId) ? 0 : PINNED_HALF;
    } catch (Throwable t) { // UnsatisfiedLinkError, CLException, a device that went away
      throw new ExecutionException("cannot open OpenCL device " + info.name() + ": " + OneLine.of(t), t);
    }
    this.programs = new ProgramCache<>(MAX_PROGRAMS, disk, p -> quietly(() -> clReleaseProgram(p)));
  }

  /** Program cache counters (memory hits, disk hits, compiles). */
  public ProgramCache.Stats programStats() {
    return programs.stats();
  }

  /**
   * Runs {@code launch} of {@code kernel}, reading and writing shared memory through {@code memory}; on return
   * every buffer's read-back range is in its pieces.
   *
   * @throws ExecutionException when the launch failed; the pieces' contents are then undefined, and no
   *     command of the launch is still running
   */
  public LaunchTimings run(OpenClKernel kernel, KernelLaunch launch, Memory memory) throws ExecutionException {
    lifecycle.readLock().lock();
    try {
      if (closed) throw new ExecutionException("OpenCL device " + info.name() + " closed");
      return runOpen(kernel, launch, memory);
    } catch (ProgramBuildException | RuntimeException e) { // CLException, or a device that went away
      throw new ExecutionException("opencl launch failed on " + info.name() + ": " + OneLine.of(e), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private LaunchTimings runOpen(OpenClKernel k, KernelLaunch launch, Memory memory) throws ProgramBuildException {
    long t0 = System.nanoTime();
    ProgramKey key = new ProgramKey(k.source(), info.name(), info.driverVersion(), k.buildOptions(), version);
    List<cl_mem> buffers = new ArrayList<>();
    cl_kernel kernel = null;
    cl_command_queue queue = borrowQueue();
    PinnedTransfers pinned = null;
    boolean finished = false;
    try (ProgramLease<cl_program> lease = programs.acquire(key, new Compiler(k))) {
      pinned = borrowPinned(queue, launch.args().stream()
          .anyMatch(a -> a instanceof KernelLaunch.Buffer b && b.pieces().stream().anyMatch(p -> pinnable(p.length()))));
      kernel = clCreateKernel(lease.program(), k.name(), null);
      long t1 = System.nanoTime();
      List<KernelLaunch.Arg> args = launch.args();
      cl_mem[] mems = new cl_mem[args.size()];
      for (int i = 0; i < args.size(); i++) {
        if (args.get(i) instanceof KernelLaunch.Buffer b) {
          if (b.kept() != 0) {
            mems[i] = keep(b);
          } else {
            mems[i] = clCreateBuffer(context, b.written() ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY, b.bytes(), null, null);
            buffers.add(mems[i]);
          }
          if (b.upload()) {
            long at = 0;
            for (KernelLaunch.Piece p : b.pieces()) {
              if (pinned != null && pinnable(p.length())) pinned.write(queue, mems[i], at, memory.slice(p));
              else clEnqueueWriteBuffer(queue, mems[i], CL_FALSE, at, p.length(), Pointer.to(memory.slice(p)), 0, null, null);
              at += p.length();
            }
          }
          clSetKernelArg(kernel, i, Sizeof.cl_mem, Pointer.to(mems[i]));
        } else {
          setScalar(kernel, i, (KernelLaunch.Scalar) args.get(i));
        }
      }
      if (pinned != null) pinned.drain();
      clFinish(queue);
      long t2 = System.nanoTime();
      List<KernelLaunch.Dimension> range = launch.range();
      long[] global = new long[range.size()];
      long[] local = new long[range.size()];
      for (int d = 0; d < global.length; d++) {
        global[d] = range.get(d).global();
        local[d] = range.get(d).local();
      }
      clEnqueueNDRangeKernel(queue, kernel, global.length, null, global, local, 0, null, null);
      clFinish(queue);
      long t3 = System.nanoTime();
      for (int i = 0; i < args.size(); i++) {
        if (args.get(i) instanceof KernelLaunch.Buffer b && b.readLength() > 0) readBack(queue, mems[i], b, memory, pinned);
      }
      if (pinned != null) pinned.drain();
      clFinish(queue);
      finished = true;
      return new LaunchTimings(t1 - t0, t2 - t1, t3 - t2, System.nanoTime() - t3);
    } finally {
      giveBack(queue, finished);
      givePinnedBack(pinned);
      if (kernel != null) {
        cl_kernel kk = kernel;
        quietly(() -> clReleaseKernel(kk));
      }
      for (cl_mem m : buffers) quietly(() -> clReleaseMemObject(m));
    }
  }

  /** A buffer kept between launches, and its size. */
  private record Kept(cl_mem mem, long bytes) {}

  /** The buffer kept under {@code b}'s handle, created (contents undefined) when there is none yet. */
  private cl_mem keep(KernelLaunch.Buffer b) {
    Kept k = kept.get(b.kept());
    if (k == null) {
      k = new Kept(clCreateBuffer(context, CL_MEM_READ_WRITE, b.bytes(), null, null), b.bytes());
      kept.put(b.kept(), k);
    } else if (k.bytes() != b.bytes()) {
      throw new IllegalArgumentException("buffer " + b.kept() + " holds " + k.bytes() + " bytes, not " + b.bytes());
    }
    return k.mem();
  }

  /**
   * Copies the read-back range of each of {@code buffers}, kept by this device, into its pieces; returns the
   * nanoseconds that took.
   *
   * @throws ExecutionException when a buffer is not kept here or a copy failed; the pieces' contents are then
   *     undefined, and no copy is still running
   */
  public long read(List<KernelLaunch.Buffer> buffers, Memory memory) throws ExecutionException {
    lifecycle.readLock().lock();
    try {
      if (closed) throw new ExecutionException("OpenCL device " + info.name() + " closed");
      return readOpen(buffers, memory);
    } catch (RuntimeException e) { // CLException, or a device that went away
      throw new ExecutionException("opencl read-back failed on " + info.name() + ": " + OneLine.of(e), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private long readOpen(List<KernelLaunch.Buffer> buffers, Memory memory) throws ExecutionException {
    cl_command_queue queue = borrowQueue();
    PinnedTransfers pinned = null;
    boolean finished = false;
    try {
      pinned = borrowPinned(queue, buffers.stream().anyMatch(b -> pinnable(b.readLength())));
      long t0 = System.nanoTime();
      for (KernelLaunch.Buffer b : buffers) {
        Kept k = kept.get(b.kept());
        if (k == null || k.bytes() != b.bytes()) {
          throw new ExecutionException("no kept buffer " + b.kept() + " of " + b.bytes() + " bytes");
        }
        readBack(queue, k.mem(), b, memory, pinned);
      }
      if (pinned != null) pinned.drain();
      clFinish(queue);
      finished = true;
      return System.nanoTime() - t0;
    } finally {
      giveBack(queue, finished);
      givePinnedBack(pinned);
    }
  }

  /** Frees the buffers kept under {@code handles} (those it does not keep are ignored). */
  public void release(long[] handles) {
    for (long h : handles) {
      Kept k = kept.remove(h);
      if (k != null) quietly(() -> clReleaseMemObject(k.mem()));
    }
  }

  /**
   * Enqueues copying the bytes {@code [readFrom, readFrom + readLength)} of {@code mem} into the pieces that hold
   * them, large ones through {@code pinned} when not null.
   */
  private void readBack(cl_command_queue queue, cl_mem mem, KernelLaunch.Buffer b, Memory memory, PinnedTransfers pinned) {
    long at = 0;
    for (KernelLaunch.Piece p : b.pieces()) {
      long lo = Math.max(at, b.readFrom());
      long hi = Math.min(at + p.length(), b.readFrom() + b.readLength());
      if (lo < hi) {
        ByteBuffer target = memory.slice(p).slice((int) (lo - at), (int) (hi - lo));
        if (pinned != null && pinnable(hi - lo)) pinned.read(queue, mem, lo, target);
        else clEnqueueReadBuffer(queue, mem, CL_FALSE, lo, hi - lo, Pointer.to(target), 0, null, null);
      }
      at += p.length();
    }
  }

  /** Whether a piece of {@code bytes} goes through pinned memory: a small one copies as fast directly. */
  private boolean pinnable(long bytes) {
    int half = pinnedHalf;
    return half > 0 && bytes >= half / 16;
  }

  /**
   * Pinned memory for a launch on {@code queue} that has pieces to move through it ({@code needed}), or null:
   * none needed, or none to be had (the driver refused; then no launch asks again).
   */
  private PinnedTransfers borrowPinned(cl_command_queue queue, boolean needed) {
    int half = pinnedHalf;
    if (!needed || half == 0) return null;
    PinnedTransfers idle = idlePinned.pollFirst();
    if (idle != null) return idle;
    try {
      return new PinnedTransfers(context, queue, half);
    } catch (RuntimeException e) {
      pinnedHalf = 0;
      System.err.println("no pinned memory on " + info.name() + " (" + OneLine.of(e) + "): transfers copy directly");
      return null;
    }
  }

  /** Keeps {@code pinned} for later launches once nothing of the last one is in flight (its queue has finished). */
  private void givePinnedBack(PinnedTransfers pinned) {
    if (pinned == null) return;
    try {
      pinned.drain();
      idlePinned.addFirst(pinned);
    } catch (RuntimeException e) { // a failed launch's command: do not trust this memory's state
      quietly(pinned::close);
    }
  }

  /** {@code CL_DEVICE_HOST_UNIFIED_MEMORY}: whether the device works in the host's memory (a CPU, most integrated GPUs). */
  @SuppressWarnings("deprecation") // deprecated by OpenCL 2.0, answered by every OpenCL 1.x driver and by 2.0+ ones
  private static boolean sharesHostMemory(cl_device_id device) {
    int[] unified = new int[1];
    clGetDeviceInfo(device, CL_DEVICE_HOST_UNIFIED_MEMORY, Sizeof.cl_int, Pointer.to(unified), null);
    return unified[0] != 0;
  }

  /** An idle command queue, or a new one. */
  private cl_command_queue borrowQueue() {
    cl_command_queue idle = idleQueues.pollFirst();
    return idle != null ? idle : createQueue();
  }

  /**
   * Returns {@code queue} after use. What failed may still have commands in flight that touch shared memory:
   * wait for them before the caller hands that memory to another launch, and keep only a queue known to be
   * idle ({@code finished}: it is).
   */
  private void giveBack(cl_command_queue queue, boolean finished) {
    if (!finished) finished = quietly(() -> clFinish(queue));
    if (finished) idleQueues.addFirst(queue);
    else quietly(() -> clReleaseCommandQueue(queue));
  }

  @SuppressWarnings("deprecation") // clCreateCommandQueue is the call OpenCL 1.x devices understand
  private cl_command_queue createQueue() {
    return clCreateCommandQueue(context, deviceId, 0, null);
  }

  private static void setScalar(cl_kernel kernel, int arg, KernelLaunch.Scalar s) {
    long bits = s.bits();
    if (s.type() == Type.LONG) clSetKernelArg(kernel, arg, Sizeof.cl_long, Pointer.to(new long[] {bits}));
    else if (s.type() == Type.FLOAT) clSetKernelArg(kernel, arg, Sizeof.cl_float, Pointer.to(new float[] {Float.intBitsToFloat((int) bits)}));
    else if (s.type() == Type.DOUBLE) clSetKernelArg(kernel, arg, Sizeof.cl_double, Pointer.to(new double[] {Double.longBitsToDouble(bits)}));
    else clSetKernelArg(kernel, arg, Sizeof.cl_int, Pointer.to(new int[] {(int) bits}));
  }

  /** Builds programs for this device's context, from source or from a cached binary. */
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
        try {
          clBuildProgram(program, 1, new cl_device_id[] {deviceId}, kernel.buildOptions(), null, null);
        } catch (CLException e) {
          if (e.getStatus() != CL_BUILD_PROGRAM_FAILURE) throw e;
          // Once more: PoCL's kernel cache, shared by every process of the user, fails a build now and then when
          // another process builds at the same time ("unable to rename temporary ... kcache"); a program that
          // does not compile fails again.
          clBuildProgram(program, 1, new cl_device_id[] {deviceId}, kernel.buildOptions(), null, null);
        }
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
      return "(no build log: " + OneLine.of(e) + ")";
    }
  }

  /** Runs a call whose failure cannot be acted on; returns whether it succeeded. */
  private static boolean quietly(Runnable call) {
    try {
      call.run();
      return true;
    } catch (RuntimeException e) {
      return false; // leaked at worst; never a reason to fail a launch or close
    }
  }

  /** Waits for the launches in flight, then frees the queues, programs and context. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) return;
      closed = true;
      programs.close();
      for (Kept k : kept.values()) quietly(() -> clReleaseMemObject(k.mem()));
      kept.clear();
      for (PinnedTransfers p; (p = idlePinned.pollFirst()) != null; ) quietly(p::close);
      for (cl_command_queue q; (q = idleQueues.pollFirst()) != null; ) {
        cl_command_queue queue = q;
        quietly(() -> clReleaseCommandQueue(queue));
      }
      quietly(() -> clReleaseContext(context));
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    int half = pinnedHalf;
    return "OpenCL device " + info + (half > 0 ? ", transfers through " + (2L * half >> 20) + " MiB of pinned memory per launch" : "");
  }
}
