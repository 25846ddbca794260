package io.looplift.progen.jvm;

/**
 * A loop nest template compiled to JVM bytecode by {@link NestKernelGenerator}. Instances hold no state, so
 * one kernel may run on many threads at once.
 */
public interface NestKernel {
  /**
   * A jammed dimension runs in blocks of this many values from the start of the range it is given, so a range
   * that starts at a multiple of it runs as many whole blocks as a range from 0 would.
   */
  int BLOCK = 4;

  /**
   * Runs the values {@code [from, to)} of the template's {@link NestDimension} in a launch whose outermost
   * loop runs iterations {@code k = 0 .. trips-1} with index {@code i = start + k * step} (int arithmetic):
   * those iterations of the outermost loop, or, when the dimension is a band, those iterations of the band
   * with the whole outermost loop inside each. {@code accs} holds raw bits (see {@link io.looplift.ir.Const}):
   * each accumulator starts from {@code accs[j]} and its final value is written back at the end, so an
   * exception thrown mid-run leaves {@code accs} untouched. The caller guarantees the template's run-time
   * guards for the whole launch.
   */
  void run(Object[] arrays, long[] params, long[] accs, int start, int step, int trips, int from, int to);
}
