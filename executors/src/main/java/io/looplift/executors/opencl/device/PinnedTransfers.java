package io.looplift.executors.opencl.device;

import static org.jocl.CL.*;

import io.looplift.executors.opencl.ParallelCopy;
import java.nio.ByteBuffer;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_event;
import org.jocl.cl_mem;

/**
 * Copies between shared memory and the buffers of a device that does not share the host's memory through
 * page-locked ("pinned") host memory, in two halves: while the device's DMA engine moves one, threads fill or
 * empty the other. A driver copies pageable memory through a staging buffer of its own, one piece at a time;
 * memory allocated with {@code CL_MEM_ALLOC_HOST_PTR} and mapped is what NVIDIA's OpenCL guide names for
 * transfers at the bus's speed.
 *
 * <p>Not thread-safe: one launch uses it at a time, on one command queue, and calls {@link #drain} before
 * the queue's {@code clFinish} ends the phase (or before giving it back after a failure).
 */
final class PinnedTransfers implements AutoCloseable {
  private final cl_mem pinned;
  private final ByteBuffer mapped;
  private final int half;
  /** The command in flight on each half, if any, and what must follow it (a read's copy out). */
  private final cl_event[] inFlight = new cl_event[2];
  private final Runnable[] then = new Runnable[2];
  private int next;

  /**
   * Allocates and maps {@code 2 * half} bytes of pinned memory through {@code queue}.
   *
   * @throws org.jocl.CLException when the driver cannot (the caller then copies directly)
   */
  PinnedTransfers(cl_context context, cl_command_queue queue, int half) {
    this.half = half;
    this.pinned = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, 2L * half, null, null);
    try {
      this.mapped = clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 2L * half, 0, null,
          null, null);
    } catch (RuntimeException e) {
      clReleaseMemObject(pinned);
      throw e;
    }
  }

  /** Enqueues copying {@code source} into {@code mem} from byte {@code at} on. */
  void write(cl_command_queue queue, cl_mem mem, long at, ByteBuffer source) {
    for (int done = 0; done < source.capacity(); ) {
      int n = Math.min(half, source.capacity() - done);
      int h = take();
      copy(source, done, mapped, h * half, n);
      cl_event event = new cl_event();
      clEnqueueWriteBuffer(queue, mem, CL_FALSE, at + done, n, Pointer.to(mapped.slice(h * half, n)), 0, null, event);
      inFlight[h] = event;
      done += n;
    }
  }

  /**
   * Enqueues copying {@code target.capacity()} bytes of {@code mem} from byte {@code from} on into
   * {@code target}; they are there once {@link #drain} returns.
   */
  void read(cl_command_queue queue, cl_mem mem, long from, ByteBuffer target) {
    for (int done = 0; done < target.capacity(); ) {
      int n = Math.min(half, target.capacity() - done);
      int h = take();
      cl_event event = new cl_event();
      clEnqueueReadBuffer(queue, mem, CL_FALSE, from + done, n, Pointer.to(mapped.slice(h * half, n)), 0, null, event);
      inFlight[h] = event;
      int targetAt = done;
      then[h] = () -> copy(mapped, h * half, target, targetAt, n);
      done += n;
    }
  }

  /** Waits for both halves, finishing their reads' copies out. */
  void drain() {
    RuntimeException failed = null;
    for (int k = 0; k < 2; k++) {
      try {
        settle(next);
      } catch (RuntimeException e) {
        if (failed == null) failed = e;
      }
      next ^= 1;
    }
    if (failed != null) throw failed;
  }

  /** The next half, once the command that last used it has completed. */
  private int take() {
    int h = next;
    settle(h);
    next ^= 1;
    return h;
  }

  private void settle(int h) {
    cl_event event = inFlight[h];
    if (event == null) return;
    Runnable after = then[h];
    inFlight[h] = null;
    then[h] = null;
    try {
      clWaitForEvents(1, new cl_event[] {event});
    } finally {
      clReleaseEvent(event);
    }
    if (after != null) after.run();
  }

  private static void copy(ByteBuffer from, int fromAt, ByteBuffer to, int toAt, int n) {
    ParallelCopy.run(n, 1, (lo, hi) -> to.put(toAt + lo, from, fromAt + lo, hi - lo));
  }

  @Override
  public void close() {
    clReleaseMemObject(pinned); // the mapping goes with it
  }
}
