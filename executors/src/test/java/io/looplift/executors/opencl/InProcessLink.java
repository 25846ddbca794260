package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.opencl.device.OpenClDevice;
import io.looplift.progen.opencl.OpenClKernel;
import io.looplift.tracecache.DiskProgramStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link DeviceLink} that runs the device code in this JVM, with shared memory in direct buffers: the
 * executor and device code tested without a host process in between.
 */
final class InProcessLink implements DeviceLink {
  private final OpenClDevice device;
  private final Map<Integer, ByteBuffer> segments = new ConcurrentHashMap<>();
  private final SegmentPool pool;

  InProcessLink(DeviceInfo info, DiskProgramStore disk, int maxSegment) throws ExecutionException {
    this(info, disk, maxSegment, -1);
  }

  /** {@code pinnedHalf}: as {@link OpenClDevice#OpenClDevice(DeviceInfo, DiskProgramStore, String, int)} takes it. */
  InProcessLink(DeviceInfo info, DiskProgramStore disk, int maxSegment, int pinnedHalf) throws ExecutionException {
    this.device = new OpenClDevice(info, disk, "test", pinnedHalf);
    this.pool = new SegmentPool(new SegmentPool.Source() {
      @Override
      public ByteBuffer create(int id, int capacity) {
        ByteBuffer b = ByteBuffer.allocateDirect(capacity);
        segments.put(id, b);
        return b;
      }

      @Override
      public void retire(int id, ByteBuffer segment) {
        segments.remove(id);
      }
    }, Math.min(1 << 16, maxSegment), maxSegment, 64 << 20);
  }

  /** The device code under test. */
  OpenClDevice device() {
    return device;
  }

  @Override
  public Staging stage(long[] blockBytes) throws ExecutionException {
    try {
      return pool.stage(blockBytes);
    } catch (IOException e) {
      throw new ExecutionException(e.getMessage(), e);
    }
  }

  /** Runs the launch at once: its lane's order is the order of the calls. */
  @Override
  public InFlight start(OpenClKernel kernel, KernelLaunch launch, int lane) throws ExecutionException {
    try {
      LaunchTimings timings = device.run(kernel, launch, this::slice);
      return () -> timings;
    } catch (ExecutionException e) {
      return () -> {
        throw e;
      };
    }
  }

  @Override
  public long read(List<KernelLaunch.Buffer> buffers, int lane) throws ExecutionException {
    return device.read(buffers, this::slice);
  }

  @Override
  public void release(long[] handles) {
    device.release(handles);
  }

  private ByteBuffer slice(KernelLaunch.Piece p) {
    return segments.get(p.segment()).slice(p.offset(), p.length());
  }

  @Override
  public boolean usable() {
    return true;
  }

  @Override
  public void close() {
    pool.close();
    device.close();
  }
}
