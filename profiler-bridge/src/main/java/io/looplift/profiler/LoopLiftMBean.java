package io.looplift.profiler;

/**
 * The management interface registered as {@code io.looplift:type=LoopLift} by
 * {@link Profiler#registerMBean()}. Every attribute is computed when read; no operation throws.
 */
public interface LoopLiftMBean {
  /** The report of {@link Profiler#reportJson()}. */
  String getReportJson();

  /** Offloaded runs over all loop sites. */
  long getOffloadedRuns();

  /** Runs over all loop sites that fell back to the original bytecode. */
  long getFallbackRuns();

  /** Kernel launches that verify mode checked against the reference executor. */
  long getVerifiedLaunches();

  /** Checked launches whose results differed from the reference executor's beyond what the options allow. */
  long getVerifyMismatches();

  /** Loop sites seen so far, offloaded and rejected. */
  int getLoopCount();

  /** Class files the class file transformer examined (see {@link Profiler#classTransformed}). */
  long getTransformedClasses();

  /** Nanoseconds the class file transformer spent on them, over all class-loading threads. */
  long getTransformNanos();

  /** Writes the report to {@code path} as {@link Profiler#writeReport} does; failures go to stderr. */
  void writeReport(String path);
}
