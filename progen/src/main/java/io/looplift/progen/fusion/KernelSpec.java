package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One kernel of a {@link ProgramSequence}: a template any executor can run, and how to bind it to a flush.
 * Kernel array slot {@code k} is flush array {@code arrayIds[k]}; kernel parameter {@code k} is
 * {@code params.get(k)} of the flush loops' parameters, and likewise for accumulators. The kernel runs the
 * index range (start, step, trips) of flush loop {@code rangeLoop}; {@code loops} are the flush loops fused
 * into it, in order. Arrays passed in are not copied and must not be modified.
 */
public record KernelSpec(LoopTemplate template, int[] arrayIds, List<SlotRef> params, List<SlotRef> accumulators,
    int rangeLoop, int[] loops) {
  public KernelSpec {
    arrayIds = arrayIds.clone();
    params = List.copyOf(params);
    accumulators = List.copyOf(accumulators);
    loops = loops.clone();
  }

  /** The kernel's array arguments, from the flush's array objects by id. */
  public Object[] bindArrays(Object[] arraysById) {
    Object[] arrays = new Object[arrayIds.length];
    for (int k = 0; k < arrays.length; k++) arrays[k] = arraysById[arrayIds[k]];
    return arrays;
  }

  /** The kernel's parameter vector, from each flush loop's parameters (raw bits). */
  public long[] bindParams(List<long[]> paramsByLoop) {
    return gather(params, paramsByLoop);
  }

  /** The kernel's initial accumulator values, from each flush loop's initial values (raw bits). */
  public long[] bindAccumulators(List<long[]> accsByLoop) {
    return gather(accumulators, accsByLoop);
  }

  /** Copies the kernel's final accumulator values back to the flush loops they belong to. */
  public void scatterAccumulators(long[] kernelAccs, List<long[]> accsByLoop) {
    for (int j = 0; j < kernelAccs.length; j++) {
      SlotRef ref = accumulators.get(j);
      accsByLoop.get(ref.loop())[ref.index()] = kernelAccs[j];
    }
  }

  private static long[] gather(List<SlotRef> refs, List<long[]> byLoop) {
    long[] values = new long[refs.size()];
    for (int k = 0; k < values.length; k++) values[k] = byLoop.get(refs.get(k).loop())[refs.get(k).index()];
    return values;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KernelSpec o && template.equals(o.template) && Arrays.equals(arrayIds, o.arrayIds)
        && params.equals(o.params) && accumulators.equals(o.accumulators) && rangeLoop == o.rangeLoop
        && Arrays.equals(loops, o.loops);
  }

  @Override
  public int hashCode() {
    return Objects.hash(template, Arrays.hashCode(arrayIds), params, accumulators, rangeLoop, Arrays.hashCode(loops));
  }

  @Override
  public String toString() {
    return "KernelSpec[loops=" + Arrays.toString(loops) + ", arrayIds=" + Arrays.toString(arrayIds) + ", rangeLoop="
        + rangeLoop + ", template=" + template + "]";
  }
}
