package io.looplift.runtime;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Reduction;
import io.looplift.profiler.Profiler;
import io.looplift.profiler.VerifyMismatch;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Verify mode: checks kernel launches against the reference executor. For a launch the {@link VerifyPolicy}
 * picks, {@link #copy} takes copies of its inputs before the executor runs it; {@link #check} then runs the
 * same work on the copies with the reference executor and compares every value the launch can write and
 * every reduction value, within the {@link Tolerance} of the options. On a mismatch the program gets the
 * reference's results, the mismatch is logged once, counted and sent to JFR, and the kernel is taken off
 * that executor for the rest of the run ({@link #takenOff}), so it runs on the next one of the chain.
 *
 * <p>Thread-safe: launches of many threads are checked at once. A launch is checked on the thread that
 * runs it, before its work completes, so nothing reads its results until they have been checked.
 */
final class Verifier {
  private final VerifyPolicy policy;
  private final Executor reference;
  private final ExecutionOptions options;
  private final Profiler profiler;
  private final Log log;
  /** Launches so far per kernel and executor ({@link #key}), for sampling. */
  private final Map<String, AtomicLong> launches = new ConcurrentHashMap<>();
  /** The kernels taken off an executor after a mismatch ({@link #key}). */
  private final Set<String> takenOff = ConcurrentHashMap.newKeySet();

  /**
   * @param policy which launches to check; not {@link VerifyPolicy.Mode#OFF}, which needs no verifier
   * @param reference computes the results every other executor's are checked against
   */
  Verifier(VerifyPolicy policy, Executor reference, ExecutionOptions options, Profiler profiler, Log log) {
    if (policy.mode() == VerifyPolicy.Mode.OFF) throw new IllegalArgumentException("verify is off");
    this.policy = policy;
    this.reference = reference;
    this.options = options;
    this.profiler = profiler;
    this.log = log;
  }

  /** True when {@code kernel} differed from the reference on {@code x} before: it must run elsewhere. */
  boolean takenOff(String kernel, Executor x) {
    return takenOff.contains(key(kernel, x));
  }

  /**
   * Counts a launch of {@code kernel} on {@code x} and, when the policy checks it, returns copies of its
   * inputs to pass to {@link #check} once {@code x} ran it; null when this launch is not checked (or its copies
   * do not fit in memory).
   */
  LaunchCopy copy(Launch launch, String kernel, Executor x) {
    if (x.name().equals(reference.name())) return null;
    if (policy.mode() == VerifyPolicy.Mode.SAMPLE) {
      AtomicLong n = launches.computeIfAbsent(key(kernel, x), k -> new AtomicLong());
      if (!policy.checks(n.getAndIncrement())) return null;
    }
    try {
      return LaunchCopy.of(launch);
    } catch (OutOfMemoryError e) {
      // Copies of a launch over most of the heap do not fit; the launch then runs unchecked rather than fails.
      log.warnOnce("verify memory " + kernel, "verify: no memory to copy the arrays of " + kernel
          + "; its launches run unchecked when they do not fit");
      return null;
    }
  }

  /**
   * Checks {@code launch}, which {@code x} just ran, against the reference executor's run on {@code before}
   * (from {@link #copy}), and on a mismatch writes the reference's results into the launch's arrays and
   * accumulators. Never throws: a launch the reference cannot run stays unchecked, with one line in the log.
   * Returns false on a mismatch, true otherwise.
   *
   * @param loops the loops the kernel computes, for the log and the JFR event
   */
  boolean check(LaunchCopy before, Launch launch, String kernel, Executor x, List<PendingLoop> loops) {
    LoopTemplate t = launch.template();
    Tolerance tolerance = Tolerance.of(t, options);
    ReferenceRun ref;
    try {
      ref = ReferenceRun.of(reference, launch, before, tolerance);
    } catch (ExecutionException | RuntimeException e) {
      log.warnOnce("verify cannot " + kernel, "verify: the reference executor cannot run " + kernel + " (" + e
          + "); its launches stay unchecked");
      return true;
    }
    List<WrittenRegion> regions = WrittenRegion.of(launch);
    ResultComparison c = new ResultComparison();
    boolean same = true;
    for (int k = 0; same && k < regions.size(); k++) {
      WrittenRegion r = regions.get(k);
      same = c.region(r, t.arrays().get(r.slot()), r.in(launch.arrays()), r.in(before.arrays()),
          tolerance.value(t.arrays().get(r.slot())));
    }
    for (int k = 0; same && k < t.reductions().size(); k++) {
      Reduction red = t.reductions().get(k);
      same = c.reduction(k, red.type(), launch.accumulators()[red.acc()], ref.accumulator(red.acc()),
          tolerance.reduction(red, launch.trips(), ref.magnitude(k)));
    }
    profiler.verified(kernel, x.name(), c.worst());
    if (same) return true;

    // The reference's results become the program's, and the kernel runs elsewhere from now on.
    for (WrittenRegion r : regions) {
      System.arraycopy(r.in(before.arrays()), r.from(), r.in(launch.arrays()), r.from(), r.to() - r.from());
    }
    ref.copyAccumulators(launch.accumulators());
    takenOff.add(key(kernel, x));
    ResultComparison.Difference d = c.first();
    VerifyMismatch m = new VerifyMismatch(kernel, x.name(), sites(loops), d.location(), d.expected(), d.actual());
    profiler.mismatch(m);
    log.warnOnce("verify mismatch " + key(kernel, x), "verify: kernel " + kernel + " on " + x.name()
        + " differs from the reference executor (loops " + m.sites() + "): first at " + m.location() + ", expected "
        + m.expected() + ", got " + m.actual() + "; the program gets the reference result, and the kernel no longer"
        + " runs on " + x.name());
    return false;
  }

  private static String sites(List<PendingLoop> loops) {
    StringJoiner j = new StringJoiner(", ");
    for (PendingLoop l : loops) j.add(l.entry.where() + "#" + l.siteId);
    return j.toString();
  }

  private static String key(String kernel, Executor x) {
    return x.name() + ' ' + kernel;
  }
}
