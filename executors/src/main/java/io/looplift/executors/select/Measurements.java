package io.looplift.executors.select;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything measured for one kernel ({@link KernelKey}), shared by the {@link SelectedKernel}s that choose
 * for it: per candidate its {@link Point}s by size class, the measuring runs under way and their samples,
 * whether it failed; the size classes being measured again; and the kernel's measuring budget.
 *
 * <p>Not thread-safe: callers hold this object's monitor.
 */
final class Measurements {
  /**
   * How many times {@code samples} runs a candidate may take at a size class while its times keep falling:
   * the first runs of a kernel (or of the original loop) run on code the JIT is still compiling, and a point
   * taken then stays wrong for as long as it is kept.
   */
  static final int WARMING_FACTOR = 3;
  /** A run faster than every earlier one by more than this means the candidate is still warming up. */
  private static final double STILL_FALLING = 0.9;
  /**
   * A candidate still warming up whose latest run is this many times slower than another candidate's best
   * at the same size class is not run again: it would not win (a slow device's runs cost the most). Two long
   * runs this far behind, the second no faster than the first, settle it (see {@link #settleIfFarBehind}); and a
   * run this far behind is not set aside as disturbed (see {@link #setAside}).
   */
  static final double OUT_OF_REACH = 4;
  /**
   * A candidate measured within this factor of the winner is re-checked in blocks of runs (see
   * {@link SelectedKernel#MAX_BLOCK}): close enough that its code's warm-up could be all that separates them.
   */
  static final double NEAR_TIE = 2;
  /**
   * How far behind the winner an offload whose point comes from its first runs in this JVM is still re-checked,
   * from the 4th re-check on (the 128th launch after the choice, so that one run costs at most 6% of the
   * launches since): a generated kernel and LoopLift's code around it run their first launches interpreted. A
   * nest measured 2.4 ms a launch on the jvm executor in its first runs, four times the bytecode's 558 µs, was
   * never run again, and ran in 143-166 µs once compiled.
   */
  static final double COLD_REACH = 8;
  /** The first re-check ({@code turn}) whose reach {@link #COLD_REACH} widens. */
  static final int COLD_RECHECK = 3;
  /**
   * A candidate whose fastest run at a size class so far lasted at least {@link #LONG_RUN_NANOS} (or, for its
   * only run so far, {@link #LONG_FIRST_RUN_NANOS}) and was this many times slower than another candidate's best
   * there is settled from its runs: further runs, the costliest of all, would not make it win. A 1024 x 1024
   * double matrix product ran 4.8 s as bytecode and 9 ms on an H100: two more bytecode runs would cost ten
   * seconds.
   */
  static final double FAR_BEHIND = 16;
  /**
   * The shortest run that settles a candidate far behind, once it has run twice there. A second run is rarely
   * cold, and a third run of a candidate so far behind costs a program's first run what its kernel saves in
   * many launches: PoCL's device ran a 4M-double map in 50-53 ms each time against 2.3-2.6 ms on the jvm
   * executor (2 cores), and at 100 ms here it was run three times for every such kernel. At 25 ms, an 800 x 800
   * row-times-vector nest (Jama's matrix product, one launch per column) had PoCL's 21-25 ms runs, 40 to 120
   * times the others', repeated three to six times.
   */
  static final long LONG_RUN_NANOS = 10_000_000;
  /**
   * The shortest first run that settles a candidate far behind on its own. A first run can be cold for longer
   * than a JIT's usual milliseconds: on 16 cores, a 2-D stencil's first run as a newly generated kernel took
   * 186 ms against the bytecode's 10 ms, and settled from that run the kernel stayed on the bytecode (0.77x
   * of plain Java) where its warm runs take 1 ms.
   */
  static final long LONG_FIRST_RUN_NANOS = 1_000_000_000;
  /**
   * How many iterations of a kernel's outermost loop the original bytecode runs in a JVM before its runs are
   * timed as it will run from then on: HotSpot compiles a loop with C2 after some 60,000 backedges in the
   * interpreter and 40,000 more in C1's profiling code ({@code Tier3BackEdgeThreshold},
   * {@code Tier4BackEdgeThreshold}), and a loop that runs as bytecode only when the selection lets it gets
   * there late. A 1,000-element saxpy called 20,000 times a launch, its calls' loop still interpreted, measured
   * 52-125 ns an iteration in its first runs against 42 once compiled, and lost to the jvm executor's 97.
   */
  static final long WARM_ITERATIONS = 100_000;
  /**
   * A bytecode run at least this long per outer iteration is timed whatever ran before it: interpreting the
   * outer loop's own bytecode adds little to it, and its inner loops reach the JIT's thresholds at once.
   */
  static final long WARM_NANOS_PER_ITERATION = 2_000;
  /** The most bytecode runs of a kernel set aside as cold; later ones are timed whatever ran before them. */
  static final int COLD_RUNS = 16;
  /**
   * The most measuring runs of a kernel set aside as disturbed; later ones count whatever ran beside them. Few:
   * a program that runs a kernel a dozen times should see its measurement end (and kept for the next run).
   */
  static final int DISTURBED_RUNS = 6;

  /** One candidate's measurements. */
  private static final class Data {
    final String device;
    String dropped;
    final TreeMap<Integer, Point> points = new TreeMap<>();
    /** Per size class being measured: the runs recorded so far, and how many more were handed out. */
    final Map<Integer, List<Point>> samples = new TreeMap<>();
    final Map<Integer, Integer> outstanding = new TreeMap<>();
    /**
     * Per size class being measured: the runs handed out, those set aside (cold, disturbed) included, by which
     * the candidates take turns.
     */
    final Map<Integer, Integer> turns = new TreeMap<>();
    /**
     * Per size class measured in this JVM: the runs its point came from, then its re-checks, oldest first; for
     * a point read from the store, the point itself then its re-checks.
     */
    final Map<Integer, List<Point>> recent = new TreeMap<>();
    /**
     * Per size class being measured: the fastest of the candidate's runs set aside there, per unit of work, an
     * upper bound of what it does there (the run was cold or disturbed).
     */
    final Map<Integer, Double> asideBest = new TreeMap<>();
    /** Per size class where the candidate was chosen: its latest normal runs there since its point last changed. */
    final Map<Integer, List<Point>> chosenRuns = new TreeMap<>();
    /** Per size class where the point follows the candidate's runs: the point measured, which drift is judged by. */
    final Map<Integer, Point> measured = new TreeMap<>();
    /** Its measuring runs that ran beside other launches of the kernel, and those that ran alone. */
    int besideRuns;
    int aloneRuns;
    /**
     * The size classes where the point of this offload comes from its first runs in this JVM (see
     * {@link Measurements#COLD_REACH}).
     */
    final Set<Integer> provisional = new HashSet<>();

    Data(String device) {
      this.device = device;
    }

    int sampled(int sizeClass) {
      return samples.getOrDefault(sizeClass, List.of()).size() + outstanding.getOrDefault(sizeClass, 0);
    }
  }

  private final KernelKey key;
  private final int budget;
  private final long warmUp;
  private final Map<String, Data> candidates = new LinkedHashMap<>();
  private final Set<Integer> remeasure = new HashSet<>();
  /** What the store held for the kernel, for candidates not registered yet; null when it held nothing valid. */
  private StoredKernel stored;
  private int overlap = 1;
  private boolean loaded;
  private int issued;
  private int runs;
  private long runNanos;
  private int drifts;
  private int lastClass = -1;
  /** Iterations of the kernel's outermost loop run as bytecode in this JVM, and its runs set aside as cold. */
  private long bytecodeIterations;
  private int coldRuns;
  /** Measuring runs set aside as disturbed ({@link #setAside}). */
  private int disturbedRuns;
  /** Bumped whenever points or failures change, so that decisions made before are made again. */
  private int version;

  /**
   * @param budget how many measuring runs the kernel may have in this JVM run
   * @param warmUp how many iterations of its outermost loop the original bytecode runs before its runs are
   *     timed ({@link #WARM_ITERATIONS} but in tests)
   */
  Measurements(KernelKey key, int budget, long warmUp) {
    this.key = key;
    this.budget = budget;
    this.warmUp = warmUp;
  }

  KernelKey key() { return key; }

  int version() { return version; }

  /** True once {@link #load} ran: the store is read once per kernel and run. */
  boolean loaded() { return loaded; }

  /** Takes what the store held (null for nothing): candidates registered from now on start from it. */
  void load(StoredKernel record) {
    loaded = true;
    stored = record;
    if (record != null) overlap = Math.max(overlap, record.overlap());
    candidates.forEach(this::adopt);
  }

  /** Counts a measuring run of {@code candidate} that ran beside other launches of the kernel, or alone. */
  void measuredBeside(String candidate, boolean beside) {
    Data d = candidates.get(candidate);
    if (d == null) return;
    boolean before = besideOthers(candidate);
    if (beside) {
      d.besideRuns++;
    } else {
      d.aloneRuns++;
    }
    if (besideOthers(candidate) != before) version++; // decisions made on the other count are stale
  }

  /**
   * Whether most of {@code candidate}'s measuring runs ran beside other launches of the kernel (in this run, or
   * as the store says of an earlier one): its times then carry the sharing of the processors that launches run
   * at once cost it, and the decision does not count that again.
   */
  boolean besideOthers(String candidate) {
    Data d = candidates.get(candidate);
    return d != null && d.besideRuns > d.aloneRuns;
  }

  /** The most launches of the kernel the program's threads ran at once, in this run or an earlier one. */
  int overlap() { return overlap; }

  /** Records that {@code n} launches overlapped; true when that is more than ever before (worth keeping). */
  boolean overlapped(int n) {
    if (n <= overlap) return false;
    overlap = n;
    version++;
    return true;
  }

  /**
   * Adds {@code c} unless known: with the points and failure the store held for it when its device is the
   * same, and nothing otherwise (a new driver or GPU is measured again; the other candidates are not).
   */
  void register(Candidate c) {
    if (candidates.containsKey(c.name())) return;
    Data d = new Data(c.device());
    candidates.put(c.name(), d);
    adopt(c.name(), d);
    version++;
  }

  /** Gives a candidate that has nothing yet what the store held for it, if its device is the same. */
  private void adopt(String name, Data d) {
    if (stored == null || !d.points.isEmpty() || d.dropped != null) return;
    for (StoredKernel.Candidate s : stored.candidates()) {
      if (!s.name().equals(name) || !s.device().equals(d.device)) continue;
      d.dropped = s.dropped();
      if (s.beside()) d.besideRuns++;
      for (Point p : s.points()) {
        d.points.put(p.sizeClass(), p);
        lastClass = Math.max(lastClass, p.sizeClass());
      }
      for (Point p : s.samples()) {
        if (d.points.containsKey(p.sizeClass())) continue;
        d.samples.computeIfAbsent(p.sizeClass(), k -> new ArrayList<>()).add(p);
      }
    }
  }

  /**
   * True when the store held points for candidates other than {@code local} (devices measured in an earlier
   * run) and, at every size class it held, one of {@code local} was the fastest: opening those devices again
   * would cost their start-up for nothing. False when the store says nothing of other candidates, or one of
   * them won somewhere. An offload measured alone counts {@code share} times its time against the original
   * bytecode, as in {@link Decider#decide}.
   */
  boolean othersLostBefore(Collection<String> local, int share) {
    if (stored == null) return false;
    Map<Integer, String> fastest = new HashMap<>();
    Map<Integer, Double> best = new HashMap<>();
    boolean others = false;
    for (StoredKernel.Candidate s : stored.candidates()) {
      if (local.contains(s.name())) {
        if (s.dropped() != null) continue;
      } else {
        others = true;
        if (s.dropped() != null) continue;
      }
      // As the decision counts them: an offload takes the processors for one of the launches run at once.
      int times = s.name().equals(Candidate.BYTECODE) || s.beside() ? 1 : share;
      for (Point p : s.points()) {
        Double b = best.get(p.sizeClass());
        if (b == null || p.nanosPerIteration() * times < b) {
          best.put(p.sizeClass(), p.nanosPerIteration() * times);
          fastest.put(p.sizeClass(), s.name());
        }
      }
    }
    return others && local.containsAll(fastest.values());
  }

  boolean dropped(String candidate) {
    return candidates.get(candidate).dropped != null;
  }

  /** The candidate's points, ordered by size class. */
  List<Point> points(String candidate) {
    return List.copyOf(candidates.get(candidate).points.values());
  }

  /** The candidate's points as measured in this run or read from the store (see {@link #followChosen}), by size class. */
  List<Point> measuredPoints(String candidate) {
    Data d = candidates.get(candidate);
    if (d.measured.isEmpty()) return List.copyOf(d.points.values());
    TreeMap<Integer, Point> points = new TreeMap<>(d.points);
    points.putAll(d.measured);
    return List.copyOf(points.values());
  }

  boolean measuredAt(String candidate, int sizeClass) {
    return candidates.get(candidate).points.containsKey(sizeClass);
  }

  /**
   * True while {@code sizeClass} is being measured again and some of {@code live} has no point there yet;
   * forgets the class once all have.
   */
  boolean remeasuring(int sizeClass, List<String> live) {
    if (!remeasure.contains(sizeClass)) return false;
    for (String c : live) {
      if (!measuredAt(c, sizeClass)) return true;
    }
    remeasure.remove(sizeClass);
    return false;
  }

  /** True while the budget has room for {@code runs} more measuring runs. */
  boolean mayMeasure(int runs) {
    return issued + runs <= budget;
  }

  /**
   * The candidate of {@code live} the next measuring run at {@code sizeClass} goes to, counted as handed out;
   * null when none needs one. Candidates take turns: the one with the fewest runs there so far, so that
   * warm-up and interference spread over all of them, runs set aside counted (while the original loop warms
   * up, an offload's first runs, its code generated and then compiled by the JIT, go between its runs instead
   * of after them all: a 16,384-row dot product's bytecode was set aside for its first nine runs, and a
   * program of fifteen launches ran its last on the pool still cold); on a tie the fastest so far (one not
   * yet run before any that ran, else the first in {@code live}), so that a program that ends while its
   * kernel is still being measured ran its last launches on the best candidate known. (On an H100, a 1024 x
   * 1024 matrix product run five times took 120 ms at best when its fifth run went to the thread pool, its
   * first GPU run having been a cold 47 ms; the GPU's later runs take 4 ms.) A candidate far behind another is
   * settled from the runs it had instead (see {@link #settleIfFarBehind}).
   */
  String nextSample(List<String> live, int sizeClass, int samples) {
    if (!mayMeasure(1)) return null;
    String next = null;
    int fewest = Integer.MAX_VALUE;
    double nextSpeed = 0;
    for (String c : live) {
      if (measuredAt(c, sizeClass)) continue;
      Data d = candidates.get(c);
      if (settleIfFarBehind(c, d, sizeClass)) continue;
      int n = d.sampled(sizeClass);
      // Past its samples, a candidate warming up (see sample) runs one more at a time.
      boolean wanted = n < samples || n < samples * WARMING_FACTOR && !d.outstanding.containsKey(sizeClass);
      int turns = d.turns.getOrDefault(sizeClass, 0);
      if (!wanted || turns > fewest) continue;
      Point fastest = fastestSample(c, sizeClass);
      double speed = fastest == null ? 0 : fastest.nanosPerWork();
      if (turns < fewest || speed < nextSpeed) {
        next = c;
        fewest = turns;
        nextSpeed = speed;
      }
    }
    if (next != null) {
      Data d = candidates.get(next);
      d.outstanding.merge(sizeClass, 1, Integer::sum);
      d.turns.merge(sizeClass, 1, Integer::sum);
      issued++;
    }
    return next;
  }

  /**
   * Completes {@code candidate}'s point at {@code sizeClass} from the runs it has there, with none under way,
   * when the fastest of them lasted long enough (see {@link #FAR_BEHIND}) and is that many times slower than
   * another candidate's best, or, with two runs or more there whose latest is not {@link #stillFalling},
   * {@link #OUT_OF_REACH} times slower; returns whether it did. Steady and that far behind, a third run, the
   * costliest of all, would not make it win: PoCL's device on 2 cores ran a row-times-vector nest over 16,384
   * rows in 69-88 ms, four times, against the pool's 4-12 ms, and the bytecode a 512 x 512 matrix product in
   * 500 ms three times against the pool's 100-150: a program launching either 15 times spent a third of its
   * launches on them.
   */
  private boolean settleIfFarBehind(String candidate, Data d, int sizeClass) {
    Point fastest = fastestSample(candidate, sizeClass);
    if (fastest == null || d.outstanding.containsKey(sizeClass)
        || fastest.nanos() < (d.sampled(sizeClass) > 1 ? LONG_RUN_NANOS : LONG_FIRST_RUN_NANOS)) {
      return false;
    }
    List<Point> runs = d.samples.get(sizeClass);
    boolean steady = runs.size() > 1 && !stillFalling(runs);
    if (fastest.nanosPerWork() < (steady ? OUT_OF_REACH : FAR_BEHIND) * bestOfOthers(candidate, sizeClass)) {
      return false;
    }
    complete(d, sizeClass, fastest);
    return true;
  }

  /** True when the latest of {@code runs} is {@link #STILL_FALLING} faster than every earlier one (false for one). */
  private static boolean stillFalling(List<Point> runs) {
    Point latest = runs.get(runs.size() - 1);
    for (Point p : runs.subList(0, runs.size() - 1)) {
      if (latest.nanosPerWork() >= STILL_FALLING * p.nanosPerWork()) return false;
    }
    return runs.size() > 1;
  }

  /** Keeps the time of {@code run}, a measuring run of a candidate set aside, as a bound of the candidate's. */
  private static void keepAsBound(Data d, Point run) {
    d.asideBest.merge(run.sizeClass(), run.nanosPerWork(), Math::min);
  }

  /** Makes {@code point}, taken from the candidate's runs at {@code sizeClass}, its point there, ending those runs. */
  private void complete(Data d, int sizeClass, Point point) {
    d.provisional.remove(sizeClass);
    d.turns.remove(sizeClass);
    d.asideBest.remove(sizeClass);
    d.recent.put(sizeClass, d.samples.remove(sizeClass));
    d.chosenRuns.remove(sizeClass);
    d.measured.remove(sizeClass);
    d.points.put(sizeClass, point);
    lastClass = sizeClass;
    version++;
  }

  /**
   * Records a measuring run of {@code candidate}, which may complete its point at the run's size class (see
   * {@link #summary}) once the latest run is not much faster than every earlier one (or
   * {@link #WARMING_FACTOR} times {@code samples} ran, or it is out of reach of the other candidates' best
   * there). A run of the original bytecode set aside as cold does not count; a run that counts
   * changes the {@link #version}. The runs counted, complete or not, are what the store keeps
   * ({@link #snapshot}): a program that ends before its kernel's measurement does leaves the rest to its next run.
   */
  void sample(String candidate, Point run, int samples) {
    runs++;
    runNanos += run.nanos();
    Data d = candidates.get(candidate);
    int c = run.sizeClass();
    release(d, c);
    if (d.dropped != null) return;
    if (candidate.equals(Candidate.BYTECODE) && cold(run)) {
      keepAsBound(d, run);
      return;
    }
    List<Point> done = d.samples.computeIfAbsent(c, k -> new ArrayList<>());
    done.add(run);
    version++;
    if (done.size() < samples) return;
    if (stillFalling(done) && done.size() < samples * WARMING_FACTOR
        && run.nanosPerWork() < OUT_OF_REACH * bestOfOthers(candidate, c)) {
      return;
    }
    complete(d, c, summary(candidate, done, samples));
    if (!candidate.equals(Candidate.BYTECODE)) d.provisional.add(c);
  }

  /**
   * What {@code candidate}'s last {@code n} runs at a size class say of it: for the original bytecode the
   * fastest, for an offload the median (the slower of the middle two, for an even count). An offload must
   * win by its typical run against the loop at its best, which is what plain Java runs once compiled: an
   * offload whose times vary more (a parallel one, on cores shared with other work) would otherwise win by
   * its luckiest run, and the original loop's slow runs are mostly the JIT's and the collector's early work.
   * A 4M-double multiply on 2 cores ran 2.29 ms at best on the jvm executor against the bytecode's 2.67, but
   * the medians of both in a JVM were 2.3-3.1 ms: chosen by its best run, the pool ran the program's calls
   * at 0.87-0.99 of plain Java. Both by their medians, saxpy over 2^24 floats chose the pool by the
   * bytecode's slower early runs and ran at 0.89.
   */
  private static Point summary(String candidate, List<Point> runs, int n) {
    List<Point> last = new ArrayList<>(runs.subList(Math.max(0, runs.size() - n), runs.size()));
    last.sort(Comparator.comparingDouble(Point::nanosPerWork));
    return last.get(candidate.equals(Candidate.BYTECODE) ? 0 : last.size() / 2);
  }

  /**
   * Counts {@code run} of the original bytecode towards its warm-up; true when it is to be set aside as cold:
   * more than 1% of its iterations ran before the loop had run {@link #WARM_ITERATIONS} (the selector's
   * warm-up) in this JVM, it was shorter than {@link #WARM_NANOS_PER_ITERATION} per iteration, and fewer than
   * {@link #COLD_RUNS} runs were set aside before.
   */
  private boolean cold(Point run) {
    long before = bytecodeIterations;
    ranBytecode(run.iterations());
    boolean cold = (warmUp - before) * 100 > run.iterations()
        && run.nanos() < WARM_NANOS_PER_ITERATION * run.iterations() && coldRuns < COLD_RUNS;
    if (cold) coldRuns++;
    return cold;
  }

  /** Counts {@code iterations} of the kernel's outermost loop run as the original bytecode. */
  void ranBytecode(long iterations) {
    bytecodeIterations = Math.min(warmUp, bytecodeIterations + iterations);
  }

  /**
   * The candidate to run again at {@code sizeClass} where {@code chosen} won, counted as handed out: the
   * {@code turn}th (wrapping) of the others measured there within {@link #OUT_OF_REACH} of the winner,
   * fastest first; null when there is none or the budget is spent. From the {@link #COLD_RECHECK}th re-check
   * ({@code turn}) on, an offload whose point comes from its first runs in this JVM counts within
   * {@link #COLD_REACH}.
   */
  String recheck(String chosen, List<String> live, int sizeClass, int turn) {
    Point winner = candidates.get(chosen).points.get(sizeClass);
    if (winner == null || !mayMeasure(1)) return null;
    List<String> near = new ArrayList<>();
    for (String c : live) {
      Data d = candidates.get(c);
      Point p = d.points.get(sizeClass);
      double reach = d.provisional.contains(sizeClass) && turn >= COLD_RECHECK ? COLD_REACH : OUT_OF_REACH;
      if (!c.equals(chosen) && p != null && p.nanosPerWork() < reach * winner.nanosPerWork()) near.add(c);
    }
    if (near.isEmpty()) return null;
    near.sort(Comparator.comparingDouble(c -> candidates.get(c).points.get(sizeClass).nanosPerWork()));
    issued++;
    return near.get(turn % near.size());
  }

  /**
   * True when {@code candidate} is among {@code live} and has a point at {@code sizeClass}: a block of re-checks
   * may run it again there (see {@link SelectedKernel#MAX_BLOCK}).
   */
  boolean usableAt(String candidate, List<String> live, int sizeClass) {
    return live.contains(candidate) && candidates.get(candidate).points.containsKey(sizeClass);
  }

  /** True when {@code candidate}'s point at {@code sizeClass} is within {@link #NEAR_TIE} of {@code winner}'s. */
  boolean nearTie(String candidate, String winner, int sizeClass) {
    Point p = candidates.get(candidate).points.get(sizeClass);
    Point w = candidates.get(winner).points.get(sizeClass);
    return p != null && w != null && p.nanosPerWork() < NEAR_TIE * w.nanosPerWork();
  }

  /**
   * Records a re-check of {@code candidate} (see {@link #recheck(String, List, int, int)}); returns true when
   * the {@link #summary} of its last {@code samples} runs there, this one included, is faster than its point,
   * which it then replaces: for the bytecode, a faster run; for an offload, two in a row. Never slower: a
   * re-check can be the first run of a path the JIT had left out of the compiled method.
   */
  boolean recheck(String candidate, Point run, int samples) {
    runs++;
    runNanos += run.nanos();
    Data d = candidates.get(candidate);
    Point p = d.points.get(run.sizeClass());
    if (candidate.equals(Candidate.BYTECODE)) ranBytecode(run.iterations());
    if (d.dropped != null || p == null) return false;
    List<Point> recent = d.recent.computeIfAbsent(run.sizeClass(), k -> new ArrayList<>(List.of(p)));
    recent.add(run);
    while (recent.size() > samples) recent.remove(0);
    Point summary = summary(candidate, recent, samples);
    if (summary.nanosPerWork() >= p.nanosPerWork()) return false;
    d.points.put(run.sizeClass(), summary);
    d.measured.remove(run.sizeClass());
    version++;
    return true;
  }

  /**
   * Records a normal run of offload {@code candidate}, chosen at the run's size class; returns true when the
   * median of its last {@code samples} such runs there is {@link #STILL_FALLING} faster than its point, which it
   * then replaces. A point comes from a candidate's first runs, which may be its code's first: a nest on the jvm
   * executor measured 600-700 µs a launch in its first runs and ran in 190-240 once the JIT had compiled its
   * kernel and LoopLift's own code, some thousand launches later. Kept, the cold point would let a re-check of
   * the bytecode win back the choice; followed, the point is what the candidate does now (a point read from
   * the store stays marked so: nothing was measured), and the store keeps it, so that the next run decides as
   * this one ended. Drift in this run is judged against the point as measured ({@link #measuredPoints}); a
   * later run starts cold again, which drift leaves out for its first launches. Slower runs leave the point as
   * it is: they are drift's to judge.
   */
  boolean followChosen(String candidate, Point run, int samples) {
    Data d = candidates.get(candidate);
    Point p = d.points.get(run.sizeClass());
    if (candidate.equals(Candidate.BYTECODE) || d.dropped != null || p == null) return false;
    List<Point> runs = d.chosenRuns.computeIfAbsent(run.sizeClass(), k -> new ArrayList<>());
    runs.add(run);
    if (runs.size() < samples) return false;
    while (runs.size() > samples) runs.remove(0);
    Point median = summary(candidate, runs, samples);
    if (median.nanosPerWork() >= STILL_FALLING * p.nanosPerWork()) return false;
    d.measured.putIfAbsent(run.sizeClass(), p);
    // A point read from the store stays one: the choice was not measured again in this run.
    d.points.put(run.sizeClass(), new Point(median.sizeClass(), median.iterations(), median.work(), median.nanos(),
        median.transferNanos(), p.persisted()));
    runs.clear();
    lastClass = run.sizeClass();
    version++;
    return true;
  }

  /** The fastest of the runs {@code candidate} has at {@code sizeClass} towards a point there; null when none. */
  Point fastestSample(String candidate, int sizeClass) {
    Point fastest = null;
    for (Point p : candidates.get(candidate).samples.getOrDefault(sizeClass, List.of())) {
      if (fastest == null || p.nanosPerWork() < fastest.nanosPerWork()) fastest = p;
    }
    return fastest;
  }

  /**
   * The fastest time per unit of work any other candidate ran in at {@code sizeClass}, runs set aside included
   * (they were slower than the candidate's own: what it does there is at least that fast); infinite when none
   * ran.
   */
  private double bestOfOthers(String candidate, int sizeClass) {
    double best = Double.POSITIVE_INFINITY;
    for (Map.Entry<String, Data> e : candidates.entrySet()) {
      if (e.getKey().equals(candidate)) continue;
      Data d = e.getValue();
      Point point = d.points.get(sizeClass);
      if (point != null) best = Math.min(best, point.nanosPerWork());
      for (Point p : d.samples.getOrDefault(sizeClass, List.of())) best = Math.min(best, p.nanosPerWork());
      best = Math.min(best, d.asideBest.getOrDefault(sizeClass, Double.POSITIVE_INFINITY));
    }
    return best;
  }

  /**
   * Sets aside a measuring run of {@code candidate} that something else disturbed (the JIT compiled through much
   * of it): its time counts as measuring cost, not as a sample, and a later launch runs the candidate again.
   * False, with nothing done, once {@link #DISTURBED_RUNS} runs of this kernel were set aside, or when the run
   * was {@link #OUT_OF_REACH} times slower than another candidate's best there: the JIT's threads take a share
   * of the processors, which would not explain so wide a gap, and running it again costs the most of all.
   */
  boolean setAside(String candidate, Point run) {
    if (disturbedRuns >= DISTURBED_RUNS
        || run.nanosPerWork() >= OUT_OF_REACH * bestOfOthers(candidate, run.sizeClass())) {
      return false;
    }
    disturbedRuns++;
    runs++;
    runNanos += run.nanos();
    Data d = candidates.get(candidate);
    release(d, run.sizeClass());
    keepAsBound(d, run);
    return true;
  }

  /**
   * Forgets a measuring run of {@code candidate} at {@code sizeClass} that was handed out but will not report,
   * so that another launch runs it, its turn again; it still counts against the budget.
   */
  void abandon(String candidate, int sizeClass) {
    Data d = candidates.get(candidate);
    release(d, sizeClass);
    d.turns.computeIfPresent(sizeClass, (k, n) -> n > 1 ? n - 1 : null);
  }

  private static void release(Data d, int sizeClass) {
    d.outstanding.computeIfPresent(sizeClass, (k, n) -> n > 1 ? n - 1 : null);
  }

  /** Marks {@code candidate} as failed on this kernel: it is chosen no more, here or in later runs. */
  void drop(String candidate, String reason) {
    Data d = candidates.get(candidate);
    if (d.dropped != null) return;
    d.dropped = reason;
    d.samples.clear();
    d.outstanding.clear();
    d.turns.clear();
    d.asideBest.clear();
    version++;
  }

  /**
   * Forgets every candidate's point at {@code sizeClass} and measures it again, when the budget has room for
   * {@code runs} more measuring runs; returns whether it did.
   */
  boolean remeasure(int sizeClass, int runs) {
    drifts++;
    if (!mayMeasure(runs)) return false;
    for (Data d : candidates.values()) {
      d.points.remove(sizeClass);
      d.recent.remove(sizeClass);
      d.turns.remove(sizeClass);
      d.asideBest.remove(sizeClass);
      d.chosenRuns.remove(sizeClass);
      d.measured.remove(sizeClass);
      d.provisional.remove(sizeClass);
    }
    remeasure.add(sizeClass);
    version++;
    return true;
  }

  int runs() { return runs; }

  long runNanos() { return runNanos; }

  int drifts() { return drifts; }

  String droppedReason(String candidate) {
    return candidates.get(candidate).dropped;
  }

  /**
   * The candidate's point at the size the kernel was last measured at, or, when it has none there, at the
   * size nearest to it; null when it has no point.
   */
  Point latest(String candidate) {
    TreeMap<Integer, Point> points = candidates.get(candidate).points;
    if (points.isEmpty()) return null;
    Map.Entry<Integer, Point> below = points.floorEntry(lastClass);
    Map.Entry<Integer, Point> above = points.ceilingEntry(lastClass);
    if (below == null) return above.getValue();
    if (above == null || lastClass - below.getKey() <= above.getKey() - lastClass) return below.getValue();
    return above.getValue();
  }

  /** What the store keeps: every registered candidate's device, failure, points and samples towards others. */
  StoredKernel snapshot(String version, int cores) {
    List<StoredKernel.Candidate> list = new ArrayList<>();
    candidates.forEach((name, d) -> {
      List<Point> samples = new ArrayList<>();
      d.samples.values().forEach(samples::addAll);
      list.add(new StoredKernel.Candidate(name, d.device, d.dropped, List.copyOf(d.points.values()), samples,
          d.besideRuns > d.aloneRuns));
    });
    return new StoredKernel(key, version, cores, overlap, list);
  }
}
