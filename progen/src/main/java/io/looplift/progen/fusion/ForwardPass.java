package io.looplift.progen.fusion;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Program inputs and outputs from the first loop to the last: which loads read data from outside the
 * flush and which read data an earlier live loop produced, which stores are visible after the flush, and
 * so which loops are scheduling roots. Dead loops produce nothing.
 */
public final class ForwardPass {
  private ForwardPass() {}

  /** The inputs and outputs of every loop of {@code flush}, by loop index. */
  public static List<LoopIo> run(Flush flush, List<LoopLiveness> liveness) {
    Set<Integer> stored = new HashSet<>();
    List<LoopIo> result = new ArrayList<>();
    for (int l = 0; l < flush.loops().size(); l++) {
      QueuedLoop loop = flush.loops().get(l);
      Set<Integer> inputs = new HashSet<>();
      Set<Integer> produced = new HashSet<>();
      for (int id : loop.loadedArrays()) (stored.contains(id) ? produced : inputs).add(id);
      Set<Integer> outputs = new HashSet<>();
      for (int id : loop.storedArrays()) {
        if (!flush.isTemporary(id)) outputs.add(id);
      }
      result.add(new LoopIo(inputs, produced, outputs, !outputs.isEmpty() || !loop.template().reductions().isEmpty()));
      if (!liveness.get(l).dead()) stored.addAll(loop.storedArrays());
    }
    return result;
  }
}
