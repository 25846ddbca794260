package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import java.util.ArrayList;
import java.util.List;

/**
 * A kernel under construction: the flush loops fused so far, in order, and their combined body, with
 * arrays numbered by flush id and parameters and accumulators concatenated in member order.
 * {@code hasOutputs} is set when some member stores a live-out array.
 */
record KernelGroup(List<Integer> loops, LoopTemplate body, boolean hasOutputs) {
  KernelGroup {
    loops = List.copyOf(loops);
  }

  /** The group of flush loop {@code loop} alone. */
  static KernelGroup of(Flush flush, int loop, LoopIo io) {
    return new KernelGroup(List.of(loop), TemplateRewrite.fragment(flush, loop, 0, 0), !io.outputs().isEmpty());
  }

  /** The loop whose index range the kernel runs: its first member (all members share it). */
  int rangeLoop() { return loops.get(0); }

  /**
   * This group followed by flush loop {@code loop}, given as its {@link TemplateRewrite fragment}; the loop's
   * loads of elements this group stores read the stored values forwarded ({@link StoreForwarding}).
   */
  KernelGroup plus(int loop, LoopTemplate fragment, LoopIo io) {
    LoopTemplate member = StoreForwarding.forward(body, fragment);
    List<Integer> members = new ArrayList<>(loops);
    members.add(loop);
    LoopTemplate joined = new LoopTemplate(body.arrays(), concat(body.params(), member.params()),
        concat(body.accumulators(), member.accumulators()), concat(body.stores(), member.stores()),
        concat(body.reductions(), member.reductions()));
    return new KernelGroup(members, joined, hasOutputs || !io.outputs().isEmpty());
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
