package io.looplift.profiler;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A loop's or kernel's choice of executor as the report shows it (its {@code "selection"} object): what the
 * measured selection chose, from where, and what it measured.
 *
 * @param executor the candidate of the latest launch ({@code bytecode}, {@code jvm}, {@code opencl:0}, …), or
 *     null before the first
 * @param source {@code measured}, {@code persisted} or {@code forced}; null before the first launch
 * @param candidates each candidate measured so far and its time per iteration of the outermost loop, in
 *     nanoseconds, at the size it was last measured at
 * @param transfers for device candidates among those, the part of that time spent moving arrays
 * @param measuringRuns launches that ran as measurements
 * @param measuringNanos the time of those launches
 * @param summary one line for {@code log=info}: what was chosen and why
 */
public record SelectionInfo(String executor, String source, Map<String, Double> candidates,
    Map<String, Double> transfers, int measuringRuns, long measuringNanos, String summary) {
  public SelectionInfo {
    candidates = Collections.unmodifiableMap(new LinkedHashMap<>(candidates));
    transfers = Collections.unmodifiableMap(new LinkedHashMap<>(transfers));
  }

  void write(JsonWriter w) {
    w.beginObject().name("executor").value(executor).name("source").value(source);
    w.name("candidates").beginObject();
    candidates.forEach((name, nanos) -> w.name(name).value(nanos));
    w.endObject().name("transfers").beginObject();
    transfers.forEach((name, nanos) -> w.name(name).value(nanos));
    w.endObject().name("measuringRuns").value(measuringRuns).name("measuringNanos").value(measuringNanos);
    w.endObject();
  }
}
