package io.looplift.executors.opencl;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.Launch;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Loop;
import io.looplift.progen.opencl.KernelLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The NDRange of one launch and the scalar arguments that place its work items in the template's iteration
 * space (see {@link io.looplift.progen.opencl.OpenClKernel}): for the chunked layout, how many iterations
 * each work item runs; for the others, each band loop's first value and number of iterations.
 *
 * @param range the NDRange's dimensions, dimension 0 first; empty when a band loop has no iterations, so
 *     that nothing runs
 * @param scalars the kernel's int arguments after the partials, in order
 * @param groups the chunked layout's number of work-groups, one partial each per reduction; 0 for the others
 */
record LaunchGeometry(List<KernelLaunch.Dimension> range, List<Integer> scalars, int groups) {
  /** Reductions use at most this many work-groups, so the host combines few partials. */
  private static final int MAX_REDUCTION_GROUPS = 4096;
  /**
   * How many neighbouring work items along dimension 0 a work-group of a band layout holds before it grows
   * along the others: a GPU runs 32 of them as one warp, whose loads of neighbouring elements coalesce.
   */
  private static final int WARP = 32;

  LaunchGeometry {
    range = List.copyOf(range);
    scalars = List.copyOf(scalars);
  }

  /**
   * The geometry of {@code launch} (at least one iteration) with {@code layout}, in work-groups of at most
   * {@code workGroupSize} work items, a power of two.
   *
   * @throws ExecutionException when a band loop's bounds throw or it would not count as Java's loop does
   *     (guards prevent both)
   */
  static LaunchGeometry of(KernelLayout layout, Launch launch, int workGroupSize) throws ExecutionException {
    int trips = launch.trips();
    List<Integer> scalars = new ArrayList<>(List.of(launch.start(), launch.step(), trips));
    if (layout.chunked()) {
      boolean reduces = !launch.template().reductions().isEmpty();
      int chunk = reduces ? (int) Math.max(1, ceilDiv(trips, (long) workGroupSize * MAX_REDUCTION_GROUPS)) : 1;
      long groups = ceilDiv(ceilDiv(trips, chunk), workGroupSize);
      scalars.add(chunk);
      return new LaunchGeometry(List.of(new KernelLaunch.Dimension(groups * workGroupSize, workGroupSize)), scalars,
          (int) groups);
    }
    // Band loops' bounds are constants and parameters: the same for every iteration of the outer loop.
    Interpreter invariants = new Interpreter(launch.arrays(), launch.params(), launch.accumulators().clone());
    List<Long> extents = new ArrayList<>(); // dimension 0 first: the innermost band loop
    for (Loop b : layout.band()) {
      int start;
      int limit;
      try {
        start = (int) invariants.evaluate(b.start(), launch.start());
        limit = (int) invariants.evaluate(b.limit(), launch.start());
      } catch (ArithmeticException e) { // a division by zero, which guards leave to the original loop
        throw new ExecutionException("the bounds of inner loop " + b.id() + " throw " + e.getMessage(), e);
      }
      long bandTrips = b.shape().trips(start, limit);
      if (bandTrips < 0) throw new ExecutionException("inner loop " + b.id() + " from " + start + " to " + limit + " does not count");
      scalars.add(start);
      scalars.add((int) bandTrips);
      extents.add(0, bandTrips);
    }
    if (!layout.ordered()) extents.add((long) trips);
    if (extents.contains(0L)) return new LaunchGeometry(List.of(), scalars, 0);
    int[] local = workGroup(extents, workGroupSize);
    List<KernelLaunch.Dimension> range = new ArrayList<>();
    for (int d = 0; d < local.length; d++) range.add(new KernelLaunch.Dimension(ceilDiv(extents.get(d), local[d]) * local[d], local[d]));
    return new LaunchGeometry(range, scalars, 0);
  }

  /**
   * A work-group shape of at most {@code total} work items for a range of {@code extents}: up to a warp along
   * dimension 0, then as much as the other dimensions can use, then what is left along dimension 0 again; no
   * dimension larger than the power of two that covers its extent, so a small extent wastes few work items.
   */
  static int[] workGroup(List<Long> extents, int total) {
    int[] local = new int[extents.size()];
    local[0] = cover(extents.get(0), Math.min(WARP, total));
    int used = local[0];
    for (int d = 1; d < local.length; d++) {
      local[d] = cover(extents.get(d), total / used);
      used *= local[d];
    }
    local[0] = cover(extents.get(0), total / (used / local[0]));
    return local;
  }

  /** The least power of two that is at least {@code extent}, or {@code most} (a power of two) if less. */
  private static int cover(long extent, int most) {
    return extent >= most ? most : (int) Long.highestOneBit(2 * extent - 1);
  }

  /** True when the launch has nothing to run. */
  boolean empty() {
    return range.isEmpty();
  }

  private static long ceilDiv(long x, long y) {
    return (x + y - 1) / y;
  }
}
