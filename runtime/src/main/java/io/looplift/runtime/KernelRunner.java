package io.looplift.runtime;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import io.looplift.executors.select.Choice;
import io.looplift.executors.select.Offload;
import io.looplift.ir.LoopTemplate;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Runs one kernel launch on the executor the {@link Selections} chose, reports its time back to the selection
 * and records it for the report. When the chosen executor fails, the selection drops it for the kernel and
 * names the next; when none is left, the executors not tried run it in order of preference (the reference
 * executor, last, runs anything). With a {@link Verifier}, the launches it picks are checked against the
 * reference executor before they count as done; a launch that differs gets the reference's results, and its
 * executor is dropped for the kernel as if it had failed. Thread-safe.
 */
final class KernelRunner {
  private final Selections selections;
  private final ExecutionOptions options;
  private final Profiler profiler;
  private final Log log;
  private final LongSupplier clock;
  private final Verifier verifier;

  /**
   * @param clock nanoseconds, for the time the report attributes to kernels and loops and the selection measures
   * @param verifier checks launches against the reference executor; null when verify mode is off, which then
   *     costs nothing
   */
  KernelRunner(Selections selections, ExecutionOptions options, Profiler profiler, Log log, LongSupplier clock,
      Verifier verifier) {
    this.selections = selections;
    this.options = options;
    this.profiler = profiler;
    this.log = log;
    this.clock = clock;
    this.verifier = verifier;
  }

  ExecutionOptions options() { return options; }

  /** True when some executor supports {@code t}. */
  boolean supports(LoopTemplate t) {
    for (Offload o : selections.open()) {
      if (o.executor().supports(t, options)) return true;
    }
    return false;
  }

  /**
   * Sessions for a work of {@code launches} launches, or null when they would gain nothing (a single launch)
   * or must not be used (verify mode checks each launch's results in the program's arrays at once).
   */
  FlushSessions sessions(int launches) {
    return launches < 2 || verifier != null ? null : new FlushSessions();
  }

  /**
   * Makes the results of {@code sessions}' launches the program's and frees them; called when the work is
   * done (or failed), with what {@link #sessions} gave.
   */
  void finish(FlushSessions sessions) {
    if (sessions == null) return;
    try {
      commit(sessions, null);
    } finally {
      sessions.close();
    }
  }

  /**
   * Runs {@code launch}, the kernel named {@code kernel} computing {@code loops}; returns false when every
   * executor failed (none of them wrote anything, by the executor contract). A kernel of one loop runs on
   * what was chosen for that loop at its site; a kernel of several is chosen for here. With
   * {@code sessions} (null for none), an executor's session runs the launch when it takes it.
   */
  boolean run(Launch launch, String kernel, List<PendingLoop> loops, FlushSessions sessions) {
    boolean alone = loops.size() == 1 && loops.get(0).decision != null;
    if (!alone) {
      // The loops' own choices are not what runs: their sites learn nothing from this launch.
      for (PendingLoop l : loops) {
        if (l.decision != null) l.decision.selection().abandon(l.decision.choice());
      }
    }
    Selections.Decision decision = alone ? loops.get(0).decision : selections.kernel(launch, loops).orElse(null);
    List<Executor> failed = new ArrayList<>();
    Choice choice = decision == null ? null : decision.choice();
    while (choice != null && !choice.bytecode()) {
      Executor x = selections.executor(choice);
      String error = x == null ? "not open" : attempt(x, launch, kernel, loops, decision, choice, sessions);
      if (error == null) return true;
      if (x != null) failed.add(x);
      choice = next(decision, choice, error, kernel);
    }
    return runElsewhere(launch, kernel, loops, failed, sessions);
  }

  /**
   * What the selection runs after {@code choice} failed with {@code error}; null when nothing is left, or when
   * the selection could not say (the executors not tried then run it, in order of preference).
   */
  private Choice next(Selections.Decision decision, Choice choice, String error, String kernel) {
    try {
      return decision.selection().failed(choice, error).orElse(null);
    } catch (RuntimeException e) {
      log.debugOnce("learn " + kernel + " " + e, "internal error recording a failed launch of " + kernel + ": " + e);
      return null;
    }
  }

  /**
   * Runs {@code launch} on the open executors that support it, in order of preference, but not on those
   * {@code failed}; returns false when none could.
   */
  private boolean runElsewhere(Launch launch, String kernel, List<PendingLoop> loops, List<Executor> failed,
      FlushSessions sessions) {
    // Nothing chosen is left (or the bytecode, which loops already queued cannot go back to).
    for (Offload o : selections.open()) {
      Executor x = o.executor();
      if (failed.contains(x) || !x.supports(launch.template(), options)) continue;
      if (attempt(x, launch, kernel, loops, null, null, sessions) == null) return true;
    }
    return false;
  }

  /**
   * Runs {@code launch} on {@code x}; returns null when it completed (with the reference's results, if verify
   * mode found the executor's wrong), else why not. A completed run's time, less what later launches do not
   * pay, goes to the selection when {@code decision} made {@code choice}; a wrong one drops the executor there.
   */
  private String attempt(Executor x, Launch launch, String kernel, List<PendingLoop> loops,
      Selections.Decision decision, Choice choice, FlushSessions sessions) {
    if (verifier != null && verifier.takenOff(kernel, x)) return "differed from the reference executor before";
    FlushSession session = sessions == null ? null : sessions.of(x, launch);
    if (sessions != null) commit(sessions, session);
    LaunchCopy before = verifier == null ? null : verifier.copy(launch, kernel, x);
    long[] accumulators = session == null ? null : launch.accumulators().clone();
    long t0 = clock.getAsLong();
    boolean completed = true;
    try {
      if (session != null) completed = session.execute(launch, options);
      else x.execute(launch, options);
    } catch (ExecutionException e) {
      log.debugOnce("exec " + x.name() + " " + kernel, x.name() + " failed on " + loops.get(0).entry.where() + ": "
          + e.getMessage() + "; trying the next executor");
      if (session != null) runAgain(sessions.lost(), sessions);
      return e.getMessage();
    }
    long nanos = clock.getAsLong() - t0;
    if (session != null) {
      sessions.ran(session, new FlushSessions.Uncommitted(x, launch, accumulators, kernel, loops, completed ? -1 : nanos));
    } else if (sessions != null) {
      sessions.changed(written(launch));
    }
    // A launch still in flight is recorded at the commit; its own time is not known, so the selection learns
    // nothing from it.
    if (!completed) return null;
    learning(kernel, () -> recordRun(x, launch, kernel, loops, nanos));
    boolean right = before == null || verifier.check(before, launch, kernel, x, loops);
    if (decision == null) return null;
    learning(kernel, () -> {
      if (right) {
        decision.selection().record(choice, Math.max(0, nanos - launch.setupNanos()), launch.transferNanos());
      } else {
        // The launch is complete with the reference's results; what the selection would run next is not needed.
        decision.selection().failed(choice, "differed from the reference executor")
            .ifPresent(next -> decision.selection().abandon(next));
      }
      profiler.kernelSelection(kernel, () -> Selections.info(decision.selection()));
    });
    return null;
  }

  /**
   * Runs what LoopLift learns from a completed launch of {@code kernel} (the report, the selection): its
   * results are the program's already, so an internal error there loses only that, never the launch.
   */
  private void learning(String kernel, Runnable bookkeeping) {
    try {
      bookkeeping.run();
    } catch (RuntimeException e) {
      log.debugOnce("learn " + kernel + " " + e, "internal error recording a launch of " + kernel + ": " + e);
    }
  }

  /**
   * Commits the launches of the session holding some, unless it is {@code next} (which runs the next launch
   * and may go on holding them); when that fails, runs them again elsewhere.
   */
  private void commit(FlushSessions sessions, FlushSession next) {
    FlushSession active = sessions.active();
    if (active == null || active == next) return;
    try {
      FlushSession.Transfer t = active.commit();
      for (FlushSessions.Uncommitted u : sessions.uncommitted()) {
        if (!u.inFlight()) continue;
        Launch l = u.launch();
        recordRun(u.executor(), l, u.kernel(), u.loops(), u.startNanos() + l.setupNanos() + l.transferNanos() + l.deviceNanos());
      }
      profiler.kernelDevice(sessions.lastKernel(), t.nanos(), t.bytes(), 0);
      sessions.committed();
    } catch (ExecutionException e) {
      log.debugOnce("commit " + sessions.lastKernel(), "reading results back failed after " + sessions.lastKernel() + ": "
          + e.getMessage() + "; running its flush's launches again elsewhere");
      runAgain(sessions.lost(), sessions);
    }
  }

  /** Runs launches whose results a failed session lost again, in order, on other executors. */
  private void runAgain(List<FlushSessions.Uncommitted> lost, FlushSessions sessions) {
    for (FlushSessions.Uncommitted u : lost) {
      long[] acc = u.launch().accumulators();
      System.arraycopy(u.accumulators(), 0, acc, 0, acc.length);
      if (!runElsewhere(u.launch(), u.kernel(), u.loops(), List.of(u.executor()), sessions)) {
        log.warnOnce("lost " + u.kernel(), "could not run the loop at " + u.loops().get(0).entry.where()
            + " again after its device failed; its results may be missing");
      }
    }
  }

  /** The arrays {@code launch} may write. */
  private static Object[] written(Launch launch) {
    List<Object> written = new ArrayList<>();
    for (int a = 0; a < launch.arrays().length; a++) {
      if (launch.template().writes(a)) written.add(launch.arrays()[a]);
    }
    return written.toArray();
  }

  private void recordRun(Executor x, Launch launch, String kernel, List<PendingLoop> loops, long nanos) {
    int[] ids = new int[loops.size()];
    for (int k = 0; k < ids.length; k++) {
      PendingLoop l = loops.get(k);
      ids[k] = l.entry.id();
      // A fused kernel's time is shared evenly among its loops.
      profiler.offloaded(ids[k], x.name(), nanos / ids.length);
    }
    profiler.kernelLaunch(kernel, x.name(), nanos, ids);
    if (launch.transferBytes() > 0 || launch.deviceNanos() > 0) {
      profiler.kernelDevice(kernel, launch.transferNanos(), launch.transferBytes(), launch.deviceNanos());
    }
  }
}
