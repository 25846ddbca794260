package io.looplift.executors.select;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the report says about one kernel's choice of candidate: its {@code "selection"} object.
 *
 * @param executor the candidate of the latest launch, or null before the first
 * @param source where that choice came from, or null before the first launch
 * @param why one line for the log saying why
 * @param candidates for each candidate measured so far (in the caller's order), its time per iteration of the
 *     outermost loop, in nanoseconds, at the size it was last measured at (with a forced choice: at its
 *     latest run; while the latest size is being measured, the fastest of its runs there so far)
 * @param transfers for the device candidates among those, the part of that time spent moving arrays
 * @param dropped the candidates that failed on this kernel, with the reason
 * @param measuringRuns how many launches ran as measurements (each computed its results: the cost of
 *     measuring is the time the slower candidates took beyond the fastest)
 * @param measuringNanos the time of those launches
 * @param drifts how often the chosen candidate ran slower than measured for long enough to measure again
 */
public record SelectionReport(String executor, Source source, String why, Map<String, Double> candidates,
    Map<String, Double> transfers, Map<String, String> dropped, int measuringRuns, long measuringNanos, int drifts) {
  public SelectionReport {
    candidates = Collections.unmodifiableMap(new LinkedHashMap<>(candidates));
    transfers = Collections.unmodifiableMap(new LinkedHashMap<>(transfers));
    dropped = Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
  }

  /** One line for {@code log=info}: what was chosen and why, and what measuring cost. */
  public String summary() {
    if (executor == null) return "not launched";
    StringBuilder s = new StringBuilder(executor).append(" (").append(source).append(": ").append(why).append(')');
    if (measuringRuns > 0) {
      s.append("; ").append(measuringRuns).append(" measuring runs, ").append(Durations.format(measuringNanos));
    }
    dropped.forEach((name, reason) -> s.append("; ").append(name).append(" dropped: ").append(reason));
    return s.toString();
  }
}
