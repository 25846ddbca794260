package io.looplift.progen.fusion;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Liveness from the last loop to the first. Live-out arrays are live everywhere; a temporary is live after
 * a loop while some later live loop loads it (the release entry ends it). A loop without reductions whose
 * every store goes to an array dead after it is itself dead, so its own loads keep nothing alive.
 */
public final class BackwardPass {
  private BackwardPass() {}

  /** The liveness of every loop of {@code flush}, by loop index. */
  public static List<LoopLiveness> run(Flush flush) {
    Set<Integer> live = new HashSet<>();
    for (int id = 0; id < flush.arrays().size(); id++) {
      if (!flush.isTemporary(id)) live.add(id);
    }
    List<LoopLiveness> result = new ArrayList<>();
    for (int l = flush.loops().size() - 1; l >= 0; l--) {
      QueuedLoop loop = flush.loops().get(l);
      boolean dead = loop.template().reductions().isEmpty() && Collections.disjoint(loop.storedArrays(), live);
      result.add(new LoopLiveness(live, dead));
      if (!dead) live.addAll(loop.loadedArrays());
    }
    Collections.reverse(result);
    return result;
  }
}
