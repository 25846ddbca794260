package io.looplift.profiler;

import java.nio.file.Path;
import java.nio.file.Paths;

/** The {@link LoopLiftMBean} of one {@link Profiler}; kept apart so the profiler's own API stays small. */
final class MBeanView implements LoopLiftMBean {
  private final Profiler profiler;

  MBeanView(Profiler profiler) {
    this.profiler = profiler;
  }

  @Override
  public String getReportJson() {
    return profiler.reportJson();
  }

  @Override
  public long getOffloadedRuns() {
    return profiler.offloadedRuns();
  }

  @Override
  public long getFallbackRuns() {
    return profiler.fallbackRuns();
  }

  @Override
  public long getVerifiedLaunches() {
    return profiler.verifiedLaunches();
  }

  @Override
  public long getVerifyMismatches() {
    return profiler.verifyMismatches();
  }

  @Override
  public int getLoopCount() {
    return profiler.loopCount();
  }

  @Override
  public long getTransformedClasses() {
    return profiler.transformedClasses();
  }

  @Override
  public long getTransformNanos() {
    return profiler.transformNanos();
  }

  @Override
  public void writeReport(String path) {
    Path p;
    try {
      p = Paths.get(path);
    } catch (RuntimeException e) {
      System.err.println("looplift: cannot write report to " + path + ": " + e.getMessage());
      return;
    }
    profiler.writeReport(p);
  }
}
