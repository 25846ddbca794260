package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Nodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fusion: walks the live loops in order and packs consecutive ones into kernels greedily. A loop joins the
 * current kernel when {@link FusionRules} allow it and the result stays within the kernel limits;
 * otherwise it starts the next kernel.
 */
final class SchedulingPass {
  /** Most distinct arrays one kernel may touch. */
  static final int MAX_ARRAYS = 16;
  /** Most distinct IR nodes one kernel may have. */
  static final int MAX_NODES = 400;

  private SchedulingPass() {}

  /** The kernels, in the order they must run, covering every live loop of {@code flush} once. */
  static List<KernelGroup> run(Flush flush, List<LoopLiveness> liveness, List<LoopIo> io, boolean reassociate) {
    List<KernelGroup> kernels = new ArrayList<>();
    KernelGroup current = null;
    for (int loop = 0; loop < flush.loops().size(); loop++) {
      if (liveness.get(loop).dead()) continue;
      Optional<KernelGroup> joined = current == null ? Optional.empty() : join(flush, current, loop, io.get(loop), reassociate);
      if (joined.isPresent()) {
        current = joined.get();
      } else {
        if (current != null) kernels.add(current);
        current = KernelGroup.of(flush, loop, io.get(loop));
      }
    }
    if (current != null) kernels.add(current);
    return kernels;
  }

  private static Optional<KernelGroup> join(Flush flush, KernelGroup group, int loop, LoopIo io, boolean reassociate) {
    LoopTemplate body = group.body();
    LoopTemplate fragment = TemplateRewrite.fragment(flush, loop, body.params().size(), body.accumulators().size());
    if (!FusionRules.allow(flush, group, loop, fragment, reassociate)) return Optional.empty();
    KernelGroup joined = group.plus(loop, fragment, io);
    return fitsLimits(joined.body()) ? Optional.of(joined) : Optional.empty();
  }

  private static boolean fitsLimits(LoopTemplate body) {
    return Accesses.of(body).touched().size() <= MAX_ARRAYS && Nodes.postOrder(body.roots()).size() <= MAX_NODES;
  }
}
