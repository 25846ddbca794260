package io.looplift.executors.select;

/**
 * What one candidate took at one size class of a kernel: the fastest of its measuring runs there (the
 * others carry warm-up and interference).
 *
 * @param sizeClass {@link Size#classOf} the run's work
 * @param iterations the run's iterations of the outermost loop
 * @param work iterations times work per iteration
 * @param nanos the run's time, transfers included
 * @param transferNanos the part of {@code nanos} spent moving arrays to and from a device; 0 for the others
 * @param persisted loaded from an earlier run's record rather than measured in this one
 */
record Point(int sizeClass, long iterations, long work, long nanos, long transferNanos, boolean persisted) {
  double nanosPerIteration() {
    return (double) nanos / iterations;
  }

  /** The time per unit of work: what candidates are compared by, whatever sizes within a class they ran at. */
  double nanosPerWork() {
    return nanos / (double) work;
  }

  double transferNanosPerIteration() {
    return (double) transferNanos / iterations;
  }
}
