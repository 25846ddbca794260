package io.looplift.runtime;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import io.looplift.profiler.Profiler;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Runs one kernel launch on the first executor of the chain that supports it and succeeds, and records it
 * for the report. With a {@link Verifier}, the launches it picks are checked against the reference executor
 * before they count as done, and a kernel it took off an executor skips that executor. Thread-safe.
 */
final class KernelRunner {
  private final List<Executor> executors;
  private final ExecutionOptions options;
  private final Profiler profiler;
  private final Log log;
  private final LongSupplier clock;
  private final Verifier verifier;

  /** A runner without verify mode. */
  KernelRunner(List<Executor> executors, ExecutionOptions options, Profiler profiler, Log log, LongSupplier clock) {
    this(executors, options, profiler, log, clock, null);
  }

  /**
   * @param executors in order of preference; a launch runs on the first that supports it, and on the next
   *     one when that throws {@link ExecutionException}
   * @param clock nanoseconds, for the time the report attributes to kernels and loops
   * @param verifier checks launches against the reference executor; null when verify mode is off, which
   *     then costs nothing
   */
  KernelRunner(List<Executor> executors, ExecutionOptions options, Profiler profiler, Log log, LongSupplier clock,
      Verifier verifier) {
    this.clock = clock;
    this.executors = List.copyOf(executors);
    this.options = options;
    this.profiler = profiler;
    this.log = log;
    this.verifier = verifier;
  }

  ExecutionOptions options() { return options; }

  /** True when some executor supports {@code t}. */
  boolean supports(LoopTemplate t) {
    for (Executor x : executors) {
      if (x.supports(t, options)) return true;
    }
    return false;
  }

  /** True when the first executor that supports {@code launch}'s template expects to gain on it. */
  boolean gains(Launch launch) {
    for (Executor x : executors) {
      if (x.supports(launch.template(), options)) return x.gains(launch, options);
    }
    return false;
  }

  /**
   * Runs {@code launch}, the kernel named {@code kernel} computing {@code loops}; returns false when every
   * executor failed (none of them wrote anything, by the executor contract).
   */
  boolean run(Launch launch, String kernel, List<PendingLoop> loops) {
    for (Executor x : executors) {
      if (!x.supports(launch.template(), options)) continue;
      LaunchCopy before = null;
      if (verifier != null) {
        if (verifier.takenOff(kernel, x)) continue;
        before = verifier.copy(launch, kernel, x);
      }
      long t0 = clock.getAsLong();
      try {
        x.execute(launch, options);
      } catch (ExecutionException e) {
        log.debugOnce("exec " + x.name() + " " + kernel, x.name() + " failed on " + loops.get(0).entry.where() + ": "
            + e.getMessage() + "; trying the next executor");
        continue;
      }
      long nanos = clock.getAsLong() - t0;
      int[] ids = new int[loops.size()];
      for (int k = 0; k < ids.length; k++) {
        PendingLoop l = loops.get(k);
        ids[k] = l.entry.id();
        // A fused kernel's time is shared evenly among its loops.
        profiler.offloaded(ids[k], x.name(), nanos / ids.length);
      }
      profiler.kernelLaunch(kernel, x.name(), nanos, ids);
      if (before != null) verifier.check(before, launch, kernel, x, loops);
      return true;
    }
    return false;
  }
}
