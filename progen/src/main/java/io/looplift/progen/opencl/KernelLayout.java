package io.looplift.progen.opencl;

import io.looplift.ir.Affine;
import io.looplift.ir.Const;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * Which loops of a template the work items of its kernel stand for: the dimensions of the NDRange. Everything
 * else runs inside one work item, in Java's order.
 *
 * <ul>
 *   <li>No band, not ordered (flat templates, nests with reductions or without a parallel band): one
 *       dimension, the outermost loop; each work item runs a chunk of its iterations in order, and each
 *       work-group leaves one partial per reduction.
 *   <li>A band, not ordered: the outermost loop and the band loops, the innermost band loop as dimension 0
 *       (so that neighbouring work items touch neighbouring elements, as the innermost loop of a nest usually
 *       does) and the outermost loop as the last; each work item runs one iteration of the innermost band
 *       loop's body.
 *   <li>Ordered: the band loop, the template's whole body, is the one dimension; each work item runs the
 *       outermost loop's iterations in order around one iteration of the band loop's body.
 * </ul>
 *
 * @param band the parallel loops whose iterations are work items, outermost first: each is the whole body of
 *     the loop around it, always runs, and has bounds that are the same for the whole launch (computed from
 *     constants and parameters), so the launch knows the NDRange before it starts
 * @param ordered the template is {@link LoopTemplate#ordered}: its outermost loop runs inside the work items
 */
public record KernelLayout(List<Loop> band, boolean ordered) {
  /** OpenCL guarantees three NDRange dimensions on every device. */
  private static final int MAX_DIMENSIONS = 3;

  public KernelLayout {
    band = List.copyOf(band);
  }

  /** The layout of {@code t}'s kernel; see {@link OpenClGenerator#rejection} for the templates it has none. */
  public static KernelLayout of(LoopTemplate t) {
    if (t.ordered()) return new KernelLayout(List.of((Loop) t.body().get(0)), true);
    List<Loop> band = new ArrayList<>();
    // A reduction stays one-dimensional: its partials combine along the outermost loop, and its element may
    // read what the band loops wrote in the same iteration of the outermost loop.
    if (t.reductions().isEmpty()) {
      List<Stmt> level = t.body();
      while (band.size() < MAX_DIMENSIONS - 1 && level.size() == 1 && level.get(0) instanceof Loop l && isBand(l)) {
        band.add(l);
        level = l.body();
      }
    }
    return new KernelLayout(band, false);
  }

  /** True when {@code l}'s iterations can be work items: independent, always run, with invariant bounds. */
  static boolean isBand(Loop l) {
    return l.parallel() && l.predicate().equals(Const.TRUE) && Affine.isInvariant(l.start()) && Affine.isInvariant(l.limit());
  }

  /** How many dimensions the NDRange has: 1 to 3. */
  public int dimensions() {
    return band.size() + (ordered ? 0 : 1);
  }

  /** True for the one-dimensional layout over the outermost loop, whose work items run chunks of it. */
  public boolean chunked() {
    return band.isEmpty();
  }
}
