package io.looplift.progen.fusion;

import java.util.Set;

/**
 * What the {@link BackwardPass} found for one loop: the flush arrays whose contents are still needed after
 * it ({@code liveAfter}), and whether the loop is dead (eliminated).
 */
public record LoopLiveness(Set<Integer> liveAfter, boolean dead) {
  public LoopLiveness {
    liveAfter = Set.copyOf(liveAfter);
  }
}
