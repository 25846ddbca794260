package io.looplift.executors.opencl;

import io.looplift.executors.Launch;
import java.lang.reflect.Array;
import java.util.List;

/**
 * A one-dimensional array argument: one block holding the whole array, read back over the index range its
 * stores can reach (the whole array where they cannot be bounded).
 */
final class PlainArray implements ArrayArgument {
  private final Object array;
  private final int size;
  private final boolean written;
  /** The elements read back, {@code [from, to)}; empty when nothing is written. */
  private final int from;
  private final int to;

  PlainArray(Launch launch, int a, Reach reach) {
    this.array = launch.arrays()[a];
    this.size = StagedArrays.elementSize(array);
    this.written = launch.template().writes(a);
    int length = Array.getLength(array);
    long[] reached = written ? ArrayArgument.storeBounds(launch.template(), a, reach, s -> s.index()) : new long[] {0, -1};
    if (reached == null) reached = new long[] {0, length - 1L};
    long lo = Math.max(0, reached[0]);
    long hi = Math.min(length - 1L, reached[1]);
    this.from = (int) Math.min(lo, length);
    this.to = (int) Math.max(from, hi + 1);
  }

  @Override
  public long[] blockBytes() {
    return new long[] {StagedArrays.blockBytes(array)};
  }

  @Override
  public List<KernelLaunch.Buffer> stage(List<Staging.Block> blocks) {
    Staging.Block block = blocks.get(0);
    StagedArrays.upload(array, block, 0);
    return List.of(new KernelLaunch.Buffer(block.pieces(), true, written, (long) from * size, (long) (to - from) * size));
  }

  /**
   * The kernel argument for a buffer the device keeps under {@code handle} in {@code block}, read back only
   * later ({@link DeviceSession}): the array is copied in when {@code upload}, else the device's copy is used.
   */
  KernelLaunch.Buffer kept(Staging.Block block, boolean upload, long handle) {
    if (upload) StagedArrays.upload(array, block, 0);
    return new KernelLaunch.Buffer(block.pieces(), upload, written, 0, 0, handle);
  }

  /** The array. */
  Object array() {
    return array;
  }

  /** The first element the kernel may write. */
  int writtenFrom() {
    return from;
  }

  /** One past the last element the kernel may write; {@link #writtenFrom} when it writes none. */
  int writtenTo() {
    return to;
  }

  @Override
  public void collect(List<Staging.Block> blocks) {
    if (from < to) StagedArrays.download(blocks.get(0), 0, array, from, to);
  }
}
