package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One array argument of a launch as its kernel sees it, staged in shared memory: the blocks it takes, how
 * the program's array fills them, the kernel arguments that name them, and how the elements the kernel
 * may have written go back. Not thread-safe; one per launch.
 */
sealed interface ArrayArgument permits PlainArray, RowArray {
  /** The sizes of the blocks this argument takes, in the order of its kernel arguments. */
  long[] blockBytes();

  /** Copies the program's array into {@code blocks} and returns the kernel arguments that name them. */
  List<KernelLaunch.Buffer> stage(List<Staging.Block> blocks);

  /**
   * Copies what the kernel may have written from {@code blocks} (read back by the device side) into the
   * program's array. Only once the launch succeeded: from here on the results are the program's.
   */
  void collect(List<Staging.Block> blocks);

  /**
   * Argument {@code a} of {@code launch}.
   *
   * @throws ExecutionException when an array of arrays has a row the kernel cannot take (null, or of another type)
   */
  static ArrayArgument of(Launch launch, int a, Reach reach) throws ExecutionException {
    return launch.template().isRows(a) ? new RowArray(launch, a, reach) : new PlainArray(launch, a, reach);
  }

  /**
   * {@code [least, greatest]} of what {@code part} gives for the stores of {@code template} into argument
   * {@code a}, or null when some of them cannot be bounded; the template must write {@code a}.
   */
  static long[] storeBounds(LoopTemplate template, int a, Reach reach, Function<Store, Node> part) {
    List<long[]> bounds = new ArrayList<>();
    for (Store s : template.allStores()) {
      if (s.array() != a) continue;
      long[] b = reach.of(part.apply(s));
      if (b == null) return null;
      bounds.add(b);
    }
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (long[] b : bounds) {
      lo = Math.min(lo, b[0]);
      hi = Math.max(hi, b[1]);
    }
    return new long[] {lo, hi};
  }
}
