package io.looplift.executors.select;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * A fake machine for the selection: a clock that only moves when a simulated candidate runs, and for each
 * candidate its cost as a function of work. {@link #launch} plays the runtime's part of the protocol.
 */
final class Simulated {
  static final Candidate BYTECODE = new Candidate(Candidate.BYTECODE, "the JVM's own loop");
  static final Candidate JVM = new Candidate("jvm", "8 threads");
  static final Candidate OPENCL = new Candidate("opencl:0", "GPU driver 1.0");

  /** {@code a[i] = b[i] + c[i]} over doubles. */
  static final LoopTemplate ADD = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
      List.of(new Store(0, Type.DOUBLE, Index.I, Binary.of(BinaryOp.ADD, new Load(1, Type.DOUBLE, Index.I),
          new Load(2, Type.DOUBLE, Index.I)), Const.TRUE)), List.of());

  static final KernelKey KEY = KernelKey.of(ADD, Map.of("app.Main", "hash-1"));

  long now = 1_000_000;
  /** The simulated JIT's compilation time so far ({@link Selector.Builder#compiling}). */
  long compiled;
  /** The simulated device processes' processor time so far ({@link Selector.Builder#deviceProcesses}). */
  long deviceWork;
  /** Per candidate: how many of its next runs the JIT compiles through, and for what share of their time. */
  private final Map<String, Integer> disturbedRuns = new HashMap<>();
  private final Map<String, Double> disturbedShare = new HashMap<>();
  /** Per candidate: how many of its next runs a device process works through, and for what share of their time. */
  private final Map<String, Integer> deviceBusyRuns = new HashMap<>();
  private final Map<String, Double> deviceBusyShare = new HashMap<>();
  private final Map<String, LongUnaryOperator> costs = new HashMap<>();
  private final Set<String> failing = new HashSet<>();
  /** The iterations of the launch being run. */
  private long iterations;
  /** For {@link #launchAsTold}: launches still to run without asking, and those run so since it last asked. */
  private long unasked;
  private int skipped;
  /** Every candidate that ran, in order; measuring runs marked with a trailing {@code *}. */
  final List<String> ran = new ArrayList<>();

  /** {@code candidate} takes {@code overhead + perUnit * work} nanoseconds from now on. */
  Simulated cost(Candidate candidate, long overhead, double perUnit) {
    costs.put(candidate.name(), work -> overhead + (long) (perUnit * work));
    return this;
  }

  /**
   * {@code candidate} takes {@code perUnit[r] * work} nanoseconds in its {@code r}th run from now on, and the last
   * of them in every later run: a kernel the JIT is still compiling.
   */
  Simulated warming(Candidate candidate, double... perUnit) {
    int[] runs = {0};
    costs.put(candidate.name(), work -> (long) (perUnit[Math.min(runs[0]++, perUnit.length - 1)] * work));
    return this;
  }

  /**
   * {@code candidate} takes {@code cold} nanoseconds per unit of work until it has run {@code threshold}
   * iterations in all, {@code warm} from then on: a loop the JIT compiles after so many backedges.
   */
  Simulated compiledAfter(Candidate candidate, long threshold, double cold, double warm) {
    long[] ran = {0};
    costs.put(candidate.name(), work -> {
      boolean compiled = ran[0] >= threshold;
      ran[0] += iterations;
      return (long) ((compiled ? warm : cold) * work);
    });
    return this;
  }

  /**
   * {@code candidate} takes {@code cold} nanoseconds per unit of work until the clock reaches {@code at},
   * {@code warm} from then on: code the JIT compiles while other code runs.
   */
  Simulated compiledAt(Candidate candidate, long at, double cold, double warm) {
    costs.put(candidate.name(), work -> (long) ((now < at ? cold : warm) * work));
    return this;
  }

  /** The JIT compiles through {@code share} of the time of {@code candidate}'s next {@code runs} runs. */
  Simulated compilingDuring(Candidate candidate, int runs, double share) {
    disturbedRuns.put(candidate.name(), runs);
    disturbedShare.put(candidate.name(), share);
    return this;
  }

  /** A device's process works through {@code share} of the time of {@code candidate}'s next {@code runs} runs. */
  Simulated deviceBusyDuring(Candidate candidate, int runs, double share) {
    deviceBusyRuns.put(candidate.name(), runs);
    deviceBusyShare.put(candidate.name(), share);
    return this;
  }

  /** {@code candidate} throws from now on. */
  Simulated failing(Candidate candidate) {
    failing.add(candidate.name());
    return this;
  }

  /** A selector on this clock whose bytecode runs count from the first: the JIT's warm-up is left to the tests of it. */
  Selector.Builder selector() {
    return Selector.builder("1.0", 8).clock(() -> now).compiling(() -> compiled).deviceProcesses(() -> deviceWork)
        .warmUp(0);
  }

  /** One launch of {@code work} iterations: choose, run (or fail and run the next choice), record. */
  Choice launch(SelectedKernel k, long work) {
    return launch(k, work, 1);
  }

  /** One launch of {@code iterations} iterations doing {@code perIteration} work each. */
  Choice launch(SelectedKernel k, long iterations, long perIteration) {
    return launch(k, iterations, perIteration, 0);
  }

  /**
   * One launch of {@code work} iterations by a caller that, as the runtime does, runs the original bytecode
   * without asking for as long as a choice of it allows ({@link Choice#untilAsked}) and then says how many
   * launches it ran so; returns the choice, or null for a launch run without asking.
   */
  Choice launchAsTold(SelectedKernel k, long work) {
    if (unasked > 0) {
      unasked--;
      skipped++;
      now += costs.get(Candidate.BYTECODE).applyAsLong(work);
      ran.add(Candidate.BYTECODE);
      return null;
    }
    Choice c = launch(k, work, 1, skipped);
    skipped = 0;
    if (c.bytecode() && !c.measuring()) unasked = c.untilAsked() - 1;
    return c;
  }

  private Choice launch(SelectedKernel k, long iterations, long perIteration, int skipped) {
    long work = iterations * perIteration;
    Choice c = k.choose(iterations, perIteration, skipped).orElseThrow();
    while (failing.contains(c.candidate())) c = k.failed(c, c.candidate() + " threw").orElseThrow();
    this.iterations = iterations;
    long took = costs.get(c.candidate()).applyAsLong(work);
    now += took;
    if (disturbedRuns.getOrDefault(c.candidate(), 0) > 0) {
      disturbedRuns.merge(c.candidate(), -1, Integer::sum);
      compiled += (long) (disturbedShare.get(c.candidate()) * took);
    }
    if (deviceBusyRuns.getOrDefault(c.candidate(), 0) > 0) {
      deviceBusyRuns.merge(c.candidate(), -1, Integer::sum);
      deviceWork += (long) (deviceBusyShare.get(c.candidate()) * took);
    }
    k.record(c);
    ran.add(c.candidate() + (c.measuring() ? "*" : ""));
    return c;
  }

  /** Launches at {@code work} until a launch is no measuring run; returns that launch's choice. */
  Choice settle(SelectedKernel k, long work) {
    return settle(k, work, 1);
  }

  /** Launches of {@code iterations} doing {@code perIteration} each until a launch is no measuring run. */
  Choice settle(SelectedKernel k, long iterations, long perIteration) {
    for (int i = 0; i < 100; i++) {
      Choice c = launch(k, iterations, perIteration);
      if (!c.measuring()) return c;
    }
    throw new AssertionError("still measuring after 100 launches");
  }

  /** How many of the launches so far were measuring runs. */
  long measuringRuns() {
    return ran.stream().filter(r -> r.endsWith("*")).count();
  }

  static void assertMentions(String text, String part) {
    assertTrue(text.contains(part), () -> "'" + part + "' not in: " + text);
  }
}
