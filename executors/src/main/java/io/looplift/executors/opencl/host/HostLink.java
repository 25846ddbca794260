package io.looplift.executors.opencl.host;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.opencl.DeviceLink;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.SegmentPool;
import io.looplift.executors.opencl.Staging;
import io.looplift.progen.opencl.OpenClKernel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link DeviceLink} to one device of an OpenCL host process, with shared memory in {@link SharedFiles}.
 * The link owns the host: closing it ends the process.
 *
 * <p>Segments hold at most 1 GiB each (a Java mapping holds less than 2 GiB); a launch whose arrays need more
 * gets several, so the only limit on a launch's size is the free space of {@code /dev/shm}. Up to 256 MiB of
 * segments stay mapped between launches.
 */
public final class HostLink implements DeviceLink {
  static final int MIN_SEGMENT = 1 << 20;
  static final int MAX_SEGMENT = 1 << 30;
  static final long IDLE_LIMIT = 256L << 20;

  private final HostProcess host;
  private final int device;
  private final SegmentPool pool;

  /** A link to the device {@code device} (a handle from {@link HostProcess#open}) of {@code host}. */
  public HostLink(HostProcess host, int device) {
    this(host, device, new SegmentPool(new SharedFiles(host), MIN_SEGMENT, MAX_SEGMENT, IDLE_LIMIT));
  }

  HostLink(HostProcess host, int device, SegmentPool pool) {
    this.host = host;
    this.device = device;
    this.pool = pool;
  }

  @Override
  public Staging stage(long[] blockBytes) throws ExecutionException {
    try {
      return pool.stage(blockBytes);
    } catch (IOException e) {
      throw new ExecutionException("no shared memory for this launch: " + e.getMessage(), e);
    }
  }

  @Override
  public InFlight start(OpenClKernel kernel, KernelLaunch launch, int lane) throws ExecutionException {
    CompletableFuture<Wire.In> reply = host.send(device, kernel, launch, lane);
    return () -> host.timings(reply);
  }

  @Override
  public long read(List<KernelLaunch.Buffer> buffers, int lane) throws ExecutionException {
    return host.read(device, lane, buffers);
  }

  @Override
  public void release(long[] handles) {
    host.release(device, handles);
  }

  @Override
  public boolean usable() {
    return host.usable();
  }

  @Override
  public void close() {
    pool.close();
    host.close();
  }
}
