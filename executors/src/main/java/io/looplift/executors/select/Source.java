package io.looplift.executors.select;

import java.util.Locale;

/** Where a choice of candidate comes from, as the report's {@code "source"} says it. */
public enum Source {
  /** Measured in this run, or estimated from what this run measured (between measured sizes). */
  MEASURED,
  /** Decided by measurements loaded from an earlier run's record, without measuring anything now. */
  PERSISTED,
  /**
   * The caller's first usable candidate, measuring nothing ({@code executor=jvm|opencl|reference}), or the only
   * candidate, with nothing measured ({@code min.length} set, so that the original bytecode is none).
   */
  FORCED,
  /**
   * Only in the report: the size of the latest launch is still being measured, and the candidate named is the
   * fastest so far.
   */
  MEASURING;

  /** {@code measured}, {@code persisted}, {@code forced} or {@code measuring}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
