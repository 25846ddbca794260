package io.looplift.progen.fusion;

import io.looplift.ir.AffineIndex;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import java.util.List;

/**
 * Whether a loop may join a kernel under construction so that running both in one pass over the indices
 * gives exactly what running them one after the other gives: same iterations, no iteration of either
 * touching an element the other touches in a different iteration, and no loss of parallelism.
 */
final class FusionRules {
  private FusionRules() {}

  /**
   * True when flush loop {@code loop}, whose fragment is {@code fragment}, may join {@code group}. A loop
   * nest is a kernel of its own: only flat templates fuse.
   */
  static boolean allow(Flush flush, KernelGroup group, int loop, LoopTemplate fragment, boolean reassociate) {
    QueuedLoop joining = flush.loops().get(loop);
    return group.body().isFlat() && fragment.isFlat()
        && joining.sameRange(flush.loops().get(group.rangeLoop()))
        && parallelismAllows(group, joining.template().isParallel(reassociate), reassociate)
        && dependencesAllow(Accesses.of(group.body()), Accesses.of(fragment));
  }

  /**
   * A sequential loop makes the whole kernel sequential, which only pays when the group's stores are all to
   * temporaries (fusing then saves materializing them); a parallel loop never joins a sequential group.
   */
  private static boolean parallelismAllows(KernelGroup group, boolean joiningParallel, boolean reassociate) {
    boolean groupParallel = group.body().isParallel(reassociate);
    return joiningParallel ? groupParallel : !groupParallel || !group.hasOutputs();
  }

  /**
   * Every load of an array the group stores, and every store to an array the group touches, is at the one
   * index all the group's accesses to that array use, and that index visits a distinct element in each
   * iteration. Then each element is shared only within one iteration, where stores are forwarded.
   */
  private static boolean dependencesAllow(Accesses group, Accesses joining) {
    for (int a : joining.loaded()) {
      for (Node index : joining.loadIndices(a)) {
        if (!sameDistinctIndex(index, group.storeIndices(a))) return false;
      }
    }
    for (int a : joining.stored()) {
      for (Node index : joining.storeIndices(a)) {
        if (!sameDistinctIndex(index, group.loadIndices(a)) || !sameDistinctIndex(index, group.storeIndices(a))) return false;
      }
    }
    return true;
  }

  /**
   * True when {@code others} is empty, or when all of them are {@code index} and that index touches a
   * distinct element in each iteration: then an element is only ever accessed within one iteration.
   */
  static boolean sameDistinctIndex(Node index, List<Node> others) {
    if (others.isEmpty()) return true;
    return isDistinctPerIteration(index) && others.stream().allMatch(index::equals);
  }

  /**
   * True for an index built from the induction variable and constants only (so it means the same in every
   * member) with a nonzero scale (so different iterations touch different elements).
   */
  private static boolean isDistinctPerIteration(Node index) {
    boolean constantsAndIndex = !Nodes.anyMatch(index,
        n -> Nodes.children(n).isEmpty() && !(n instanceof Index) && !(n instanceof Const));
    AffineIndex affine = AffineIndex.of(index);
    return constantsAndIndex && affine != null && affine.scale() != 0;
  }
}
