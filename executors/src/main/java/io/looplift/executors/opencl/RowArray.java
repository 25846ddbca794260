package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.Launch;
import io.looplift.ir.Type;
import java.lang.reflect.Array;
import java.util.List;

/**
 * An array of arrays, flattened: one block with the elements of all its rows one after another and one with
 * the table of where each row starts ({@code rows + 1} longs, the last one the total), which the kernel
 * indexes as {@link io.looplift.progen.opencl.OpenClKernel} describes. Where the template writes it, each
 * row its stores can reach goes back over the elements they can reach; the device side reads back the one
 * span of the flattened block that holds them all.
 */
final class RowArray implements ArrayArgument {
  private final Object[] rows;
  private final long[] offsets;
  private final int size;
  private final boolean written;
  /** The rows that may have been written, {@code [firstRow, lastRow)}, and in each the elements {@code [from, to)}. */
  private final int firstRow;
  private final int lastRow;
  private final long from;
  private final long to;
  /** The span of the flattened block that holds every element that may have been written. */
  private final long spanFrom;
  private final long spanTo;

  RowArray(Launch launch, int a, Reach reach) throws ExecutionException {
    Type element = launch.template().arrays().get(a);
    if (!(launch.arrays()[a] instanceof Object[] array)) throw new ExecutionException("argument " + a + " has no rows");
    this.rows = array;
    this.size = element.byteSize();
    this.offsets = new long[rows.length + 1];
    Class<?> rowClass = element.arrayClass();
    for (int r = 0; r < rows.length; r++) {
      Object row = rows[r];
      if (row == null || row.getClass() != rowClass) {
        throw new ExecutionException("row " + r + " of argument " + a + " is " + (row == null ? "null" : "a " + row.getClass().getSimpleName()));
      }
      offsets[r + 1] = offsets[r] + Array.getLength(row);
    }
    this.written = launch.template().writes(a);
    long[] reachedRows = written ? ArrayArgument.storeBounds(launch.template(), a, reach, s -> s.row()) : new long[] {0, -1};
    if (reachedRows == null) reachedRows = new long[] {0, rows.length - 1L};
    long[] reached = written ? ArrayArgument.storeBounds(launch.template(), a, reach, s -> s.index()) : null;
    this.from = reached == null ? 0 : Math.max(0, reached[0]);
    this.to = reached == null ? Long.MAX_VALUE : Math.max(from, reached[1] + 1);
    this.firstRow = (int) Math.min(rows.length, Math.max(0, reachedRows[0]));
    this.lastRow = (int) Math.max(firstRow, Math.min(rows.length, reachedRows[1] + 1));
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (int r = firstRow; r < lastRow; r++) {
      long length = offsets[r + 1] - offsets[r];
      if (Math.min(length, to) > from) {
        lo = Math.min(lo, offsets[r] + from);
        hi = Math.max(hi, offsets[r] + Math.min(length, to));
      }
    }
    this.spanFrom = lo <= hi ? lo : 0;
    this.spanTo = lo <= hi ? hi : 0;
  }

  @Override
  public long[] blockBytes() {
    // OpenCL has no empty buffers: rows without elements get one unused element.
    return new long[] {Math.max(1, offsets[rows.length]) * size, (long) offsets.length * Long.BYTES};
  }

  @Override
  public List<KernelLaunch.Buffer> stage(List<Staging.Block> blocks) {
    Staging.Block elements = blocks.get(0);
    for (int r = 0; r < rows.length; r++) StagedArrays.upload(rows[r], elements, offsets[r]);
    Staging.Block table = blocks.get(1);
    StagedArrays.upload(offsets, table, 0);
    return List.of(new KernelLaunch.Buffer(elements.pieces(), true, written, spanFrom * size, (spanTo - spanFrom) * size),
        new KernelLaunch.Buffer(table.pieces(), true, false, 0, 0));
  }

  @Override
  public void collect(List<Staging.Block> blocks) {
    for (int r = firstRow; r < lastRow; r++) {
      int length = (int) (offsets[r + 1] - offsets[r]);
      int end = (int) Math.min(length, to);
      if (end > from) StagedArrays.download(blocks.get(0), offsets[r], rows[r], (int) from, end);
    }
  }
}
