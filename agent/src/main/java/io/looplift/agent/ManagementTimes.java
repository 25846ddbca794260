package io.looplift.agent;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The JIT compiler's work so far, which tells the selection that a measuring run shared the processors with
 * it: HotSpot's total compilation time (all compiler threads together) from the platform's
 * {@link CompilationMXBean}, in nanoseconds at millisecond resolution. Always 0 where the runtime image has no
 * {@code java.management} or the JVM does not monitor compilation time. The bean is looked up at the first
 * measuring run, not at start; it starts no MBean server.
 */
final class CompilationTime {
  private CompilationTime() {}

  /** The supplier for {@link io.looplift.executors.select.Selector.Builder#compiling}. */
  static LongSupplier supplier() {
    if (ModuleLayer.boot().findModule("java.management").isEmpty()) return () -> 0;
    return () -> Bean.nanos();
  }

  /** Loaded on first use only: a class referring to {@code java.management} must not load without it. */
  private static final class Bean {
    private static final CompilationMXBean BEAN = lookUp();

    private static CompilationMXBean lookUp() {
      try {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean : null;
      } catch (RuntimeException | LinkageError e) {
        return null;
      }
    }

    static long nanos() {
      return BEAN == null ? 0 : BEAN.getTotalCompilationTime() * 1_000_000;
    }
  }
}
