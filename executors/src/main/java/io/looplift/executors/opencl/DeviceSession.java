package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link FlushSession} of an {@link OpenClExecutor}: each array goes to the device with the first launch
 * that uses it and stays there, in a buffer the device keeps ({@link KernelLaunch.Buffer#kept}) over its own
 * shared-memory block; later launches use the device's copy, and the elements launches wrote are read back
 * once, at {@link #commit}. A flush of kernels that hand arrays to one another (a stencil's sweeps, a map
 * feeding a reduction) then copies each array in and out once instead of at every kernel. Launches without
 * reductions go to the device on the session's lane without waiting for the ones before them to finish, so
 * the device runs them back to back; the session waits for them all before a reduction, at the commit and
 * when it closes.
 *
 * <p>Takes launches of plain arrays (a row of an array of arrays may be another argument's array), as long
 * as the arrays it keeps stay within a limit ({@link #MAX_KEPT_BYTES} in the agent): what it does not take
 * runs as a launch of its own. The arrays a launch brings in share one lease of shared memory, freed when
 * the last of them is.
 */
final class DeviceSession implements FlushSession {
  /** The most bytes of arrays a session keeps: the device's memory and the host's shared memory hold them. */
  static final long MAX_KEPT_BYTES = 256L << 20;

  private final OpenClExecutor executor;
  private final DeviceLink link;
  private final Map<Object, Resident> residents = new IdentityHashMap<>();
  /** Arrays nothing reads after the flush: never read back. */
  private final Set<Object> unread = Collections.newSetFromMap(new IdentityHashMap<>());
  private final long maxKeptBytes;
  private final int lane;
  /** Launches started and not yet known to have completed, in order. */
  private final List<Started> inFlight = new ArrayList<>();
  /** How many launches were started without waiting for them. */
  private long starts;
  private long keptBytes;

  /** A session of {@code executor}, whose device {@code link} reaches, keeping up to {@code maxKeptBytes}. */
  DeviceSession(OpenClExecutor executor, DeviceLink link, long maxKeptBytes) {
    this.executor = executor;
    this.link = link;
    this.maxKeptBytes = maxKeptBytes;
    this.lane = executor.nextLane();
  }

  /** A launch started on the device, and the bytes it copies there. */
  private record Started(Launch launch, DeviceLink.InFlight run, long transferBytes) {}

  /** Shared memory leased for the arrays one launch brought in, freed when none of them is kept any more. */
  private static final class Lease {
    final Staging staging;
    int holders;

    Lease(Staging staging, int holders) {
      this.staging = staging;
      this.holders = holders;
    }
  }

  /** One array the device keeps: its handle, its block, and the elements written and not yet read back. */
  private static final class Resident {
    final Object array;
    final long handle;
    final Lease lease;
    final Staging.Block block;
    final long bytes;
    final int elementSize;
    int from = Integer.MAX_VALUE;
    int to = Integer.MIN_VALUE;

    Resident(Object array, long handle, Lease lease, Staging.Block block, long bytes) {
      this.array = array;
      this.handle = handle;
      this.lease = lease;
      this.block = block;
      this.bytes = bytes;
      this.elementSize = StagedArrays.elementSize(array);
    }

    boolean pending() {
      return from < to;
    }
  }

  @Override
  public boolean takes(Launch launch) {
    long more = 0;
    Set<Object> counted = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int a = 0; a < launch.template().arrays().size(); a++) {
      if (launch.template().isRows(a)) return false;
      Object array = launch.arrays()[a];
      if (!residents.containsKey(array) && counted.add(array)) more += StagedArrays.blockBytes(array);
    }
    return keptBytes + more <= maxKeptBytes;
  }

  @Override
  public boolean execute(Launch launch, ExecutionOptions options) throws ExecutionException {
    long before = starts;
    try {
      executor.execute(launch, options, this);
      return starts == before;
    } catch (ExecutionException e) {
      forget();
      throw e;
    } catch (RuntimeException e) { // a link that broke in a way it does not report as a failed launch
      forget();
      throw new ExecutionException("opencl launch failed: " + OneLine.of(e), e);
    }
  }

  /**
   * The kernel arguments of {@code arguments}: their arrays' kept buffers, each copied in when the array
   * comes in, in shared memory leased for all that come in with this launch.
   */
  List<KernelLaunch.Buffer> buffers(List<PlainArray> arguments) throws ExecutionException {
    Map<Object, PlainArray> arriving = new IdentityHashMap<>();
    for (PlainArray a : arguments) {
      if (!residents.containsKey(a.array())) arriving.putIfAbsent(a.array(), a);
    }
    if (!arriving.isEmpty()) {
      List<PlainArray> in = List.copyOf(arriving.values());
      long[] bytes = new long[in.size()];
      for (int k = 0; k < bytes.length; k++) bytes[k] = in.get(k).blockBytes()[0];
      Lease lease = new Lease(link.stage(bytes), in.size());
      for (int k = 0; k < bytes.length; k++) {
        Object array = in.get(k).array();
        residents.put(array, new Resident(array, executor.nextHandle(), lease, lease.staging.block(k), bytes[k]));
        keptBytes += bytes[k];
      }
    }
    List<KernelLaunch.Buffer> buffers = new ArrayList<>(arguments.size());
    for (PlainArray a : arguments) {
      Resident r = residents.get(a.array());
      boolean upload = arriving.remove(a.array()) != null;
      buffers.add(a.kept(r.block, upload, r.handle));
    }
    return buffers;
  }

  /** The lane this session's launches go on. */
  int lane() {
    return lane;
  }

  /**
   * Records {@code launch} of {@code arguments}, started on the device as {@code run} copying
   * {@code transferBytes} there: what it may write, and that it must complete before anything is read back.
   */
  void started(Launch launch, DeviceLink.InFlight run, long transferBytes, List<PlainArray> arguments) {
    inFlight.add(new Started(launch, run, transferBytes));
    starts++;
    ran(arguments);
  }

  /**
   * Waits for the launches in flight, recording what each spent; when one of them failed, the session forgets
   * everything and throws its failure (after every launch in flight has finished).
   */
  void settle() throws ExecutionException {
    ExecutionException failed = null;
    for (Started s : inFlight) {
      try {
        executor.completed(s.launch(), s.run().await(), s.transferBytes());
      } catch (ExecutionException e) {
        if (failed == null) failed = e;
      }
    }
    inFlight.clear();
    if (failed != null) {
      forget();
      throw failed;
    }
  }

  /** Records what the launch of {@code arguments}, which succeeded, may have written. */
  void ran(List<PlainArray> arguments) {
    for (PlainArray a : arguments) {
      if (a.writtenFrom() >= a.writtenTo() || unread.contains(a.array())) continue;
      Resident r = residents.get(a.array());
      r.from = Math.min(r.from, a.writtenFrom());
      r.to = Math.max(r.to, a.writtenTo());
    }
  }

  @Override
  public Transfer commit() throws ExecutionException {
    try {
      settle();
    } catch (RuntimeException e) {
      forget();
      throw new ExecutionException("opencl launch failed: " + OneLine.of(e), e);
    }
    List<Resident> written = new ArrayList<>();
    List<KernelLaunch.Buffer> buffers = new ArrayList<>();
    long bytes = 0;
    for (Resident r : residents.values()) {
      if (!r.pending()) continue;
      long length = (long) (r.to - r.from) * r.elementSize;
      written.add(r);
      buffers.add(new KernelLaunch.Buffer(r.block.pieces(), false, true, (long) r.from * r.elementSize,
          length, r.handle));
      bytes += length;
    }
    if (written.isEmpty()) return Transfer.NONE;
    long nanos;
    try {
      nanos = link.read(buffers, lane);
    } catch (ExecutionException e) {
      forget();
      throw e;
    } catch (RuntimeException e) {
      forget();
      throw new ExecutionException("opencl read-back failed: " + OneLine.of(e), e);
    }
    // Read back in full: from here on the results are the program's.
    for (Resident r : written) {
      StagedArrays.download(r.block, 0, r.array, r.from, r.to);
      r.from = Integer.MAX_VALUE;
      r.to = Integer.MIN_VALUE;
    }
    return new Transfer(nanos, bytes);
  }

  @Override
  public void unread(Object array) {
    unread.add(array);
  }

  @Override
  public void changed(Object[] arrays) {
    List<Resident> gone = new ArrayList<>();
    for (Object array : arrays) {
      if (array instanceof Object[] rows) {
        for (Object row : rows) take(row, gone);
      } else {
        take(array, gone);
      }
    }
    free(gone);
  }

  private void take(Object array, List<Resident> gone) {
    Resident r = array == null ? null : residents.remove(array);
    if (r != null) gone.add(r);
  }

  /**
   * Drops every copy, uncommitted results included, once the launches in flight have finished (nothing may
   * run on memory that is freed).
   */
  private void forget() {
    for (Started s : inFlight) {
      try {
        s.run().await();
      } catch (ExecutionException | RuntimeException e) {
        // Its results are dropped with the rest.
      }
    }
    inFlight.clear();
    List<Resident> all = new ArrayList<>(residents.values());
    residents.clear();
    free(all);
  }

  private void free(List<Resident> gone) {
    if (gone.isEmpty()) return;
    long[] handles = new long[gone.size()];
    for (int k = 0; k < handles.length; k++) {
      Resident r = gone.get(k);
      handles[k] = r.handle;
      keptBytes -= r.bytes;
      if (--r.lease.holders == 0) r.lease.staging.close();
    }
    link.release(handles);
  }

  @Override
  public void close() {
    forget();
  }
}
