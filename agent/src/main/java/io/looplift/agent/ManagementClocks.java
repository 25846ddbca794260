package io.looplift.agent;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * The two clocks that tell the selection a measuring run shared the processors with other work, from the
 * platform's management beans: the JIT compiler's work so far (HotSpot's total compilation time, all compiler
 * threads together, in nanoseconds at millisecond resolution; counted when a compilation ends) and the
 * processor time of the calling thread (which shows a compilation still under way, or another process, as
 * time the thread waited). Where the runtime image has no {@code java.management} or the JVM measures neither,
 * compilation time stays 0 and thread time is -1, unknown. The beans are looked up at the first measuring
 * run, not at start; they start no MBean server.
 */
final class ManagementClocks {
  private ManagementClocks() {}

  /** The supplier for {@link io.looplift.executors.select.Selector.Builder#compiling}. */
  static LongSupplier compilation() {
    return managed() ? Beans::compilationNanos : () -> 0;
  }

  /** The supplier for {@link io.looplift.executors.select.Selector.Builder#threadCpu}. */
  static LongSupplier threadCpu() {
    return managed() ? Beans::threadCpuNanos : () -> -1;
  }

  private static boolean managed() {
    return ModuleLayer.boot().findModule("java.management").isPresent();
  }

  /** Loaded on first use only: a class referring to {@code java.management} must not load without it. */
  private static final class Beans {
    private static final CompilationMXBean COMPILATION = compilationBean();
    private static final ThreadMXBean THREADS = threadBean();

    private static CompilationMXBean compilationBean() {
      try {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean : null;
      } catch (RuntimeException | LinkageError e) {
        return null;
      }
    }

    private static ThreadMXBean threadBean() {
      try {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        return bean.isCurrentThreadCpuTimeSupported() && bean.isThreadCpuTimeEnabled() ? bean : null;
      } catch (RuntimeException | LinkageError e) {
        return null;
      }
    }

    static long compilationNanos() {
      return COMPILATION == null ? 0 : COMPILATION.getTotalCompilationTime() * 1_000_000;
    }

    static long threadCpuNanos() {
      return THREADS == null ? -1 : THREADS.getCurrentThreadCpuTime();
    }
  }
}
