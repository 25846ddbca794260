package io.looplift.progen.jvm;

/**
 * A loop template compiled to JVM bytecode by {@link JvmKernelGenerator}. Instances hold no state, so one
 * kernel may run on many threads at once.
 */
public interface JvmKernel {
  /**
   * Runs iterations {@code k} in {@code [kFrom, kTo)} with induction value {@code i = start + k * step}
   * (int arithmetic). {@code accs} holds raw bits (see {@link io.looplift.ir.Const}): each accumulator
   * starts from {@code accs[j]} and its final value is written back once the loop completes, so an
   * exception thrown mid-loop leaves {@code accs} untouched. The caller guarantees the template's
   * run-time guards for the whole range.
   */
  void run(Object[] arrays, long[] params, long[] accs, int start, int step, int kFrom, int kTo);
}
