package io.looplift.agent;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * What the selection reads from the platform's management beans, in nanoseconds: the JIT compiler's work so
 * far, which tells it that a measuring run shared the processors with it (HotSpot's total compilation time, all
 * compiler threads together, at millisecond resolution; 0 where unknown), and the processor time of the calling
 * thread, which a measured original loop counts when shorter than the clock's time (negative where unknown).
 * Where the runtime image has no {@code java.management}, both are unknown. The beans are looked up at their
 * first use, not at start; that starts no MBean server.
 */
final class ManagementTimes {
  private ManagementTimes() {}

  /** The supplier for {@link io.looplift.executors.select.Selector.Builder#compiling}. */
  static LongSupplier compiling() {
    if (!present()) return () -> 0;
    return () -> Beans.compilingNanos();
  }

  /** The supplier for {@link io.looplift.runtime.Pipeline.Builder#threadCpu}. */
  static LongSupplier threadCpu() {
    if (!present()) return () -> -1;
    return () -> Beans.threadCpuNanos();
  }

  private static boolean present() {
    return ModuleLayer.boot().findModule("java.management").isPresent();
  }

  /** Loaded on first use only: a class referring to {@code java.management} must not load without it. */
  private static final class Beans {
    private static final CompilationMXBean COMPILATION = compilation();
    private static final ThreadMXBean THREADS = threads();

    private static CompilationMXBean compilation() {
      try {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean : null;
      } catch (RuntimeException | LinkageError e) {
        return null;
      }
    }

    private static ThreadMXBean threads() {
      try {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        return bean.isCurrentThreadCpuTimeSupported() && bean.isThreadCpuTimeEnabled() ? bean : null;
      } catch (RuntimeException | LinkageError e) {
        return null;
      }
    }

    static long compilingNanos() {
      return COMPILATION == null ? 0 : COMPILATION.getTotalCompilationTime() * 1_000_000;
    }

    static long threadCpuNanos() {
      return THREADS == null ? -1 : THREADS.getCurrentThreadCpuTime();
    }
  }
}
