package io.looplift.progen.fusion;

import java.util.Set;

/**
 * What the {@link ForwardPass} found for one loop: the arrays it loads that no earlier live loop stored
 * ({@code inputs}: program inputs, or zeros for a temporary), the arrays it loads that an earlier live loop
 * stored ({@code produced}), the live-out arrays it stores ({@code outputs}: program outputs), and whether
 * it is a scheduling root (it has outputs or reductions).
 */
public record LoopIo(Set<Integer> inputs, Set<Integer> produced, Set<Integer> outputs, boolean root) {
  public LoopIo {
    inputs = Set.copyOf(inputs);
    produced = Set.copyOf(produced);
    outputs = Set.copyOf(outputs);
  }
}
