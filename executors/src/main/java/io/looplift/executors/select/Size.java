package io.looplift.executors.select;

/**
 * How much work one launch does, and its size class: {@code floor(log2(work))}, where work is iterations
 * times work per iteration. A class spans a factor of two: fine enough that a kernel's cost hardly changes
 * shape inside one, coarse enough that a program's launches fall into a handful.
 *
 * @param iterations iterations of the kernel's outermost loop, at least 1
 * @param workPerIteration what one iteration does (1 for a flat loop; the inner iterations of a nest)
 * @param work iterations times work per iteration, at least 1, saturating instead of overflowing
 * @param sizeClass {@link #classOf(long) classOf(work)}
 */
record Size(long iterations, long workPerIteration, long work, int sizeClass) {
  static Size of(long iterations, long workPerIteration) {
    long i = Math.max(1, iterations);
    long w = Math.max(1, workPerIteration);
    long work = i > Long.MAX_VALUE / w ? Long.MAX_VALUE : i * w;
    return new Size(i, w, work, classOf(work));
  }

  /** The size class of {@code work} (values below 1 count as 1): 0 to 62. */
  static int classOf(long work) {
    return 63 - Long.numberOfLeadingZeros(Math.max(1, work));
  }
}
