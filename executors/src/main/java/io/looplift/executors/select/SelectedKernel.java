package io.looplift.executors.select;

import io.looplift.executors.select.CostModel.Estimate;
import io.looplift.executors.select.Decider.Measure;
import io.looplift.executors.select.Decider.Pick;
import io.looplift.executors.select.Decider.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The choice of candidate for one kernel among the candidates one caller can run it on: what each launch
 * runs on, and what the caller reports back. From {@link Selector#kernel}; thread-safe (launches of the same
 * kernel serialize on a short lock, other kernels' launches do not wait for them).
 *
 * <p>The protocol, for every launch: {@link #choose} with the launch's size; run the chosen candidate; then
 * exactly one of {@link #record} (it completed; its time, measured around the run by the caller, or by the
 * selection's clock from the moment of the choice), {@link #failed} (it threw, or verification found it
 * wrong; run what that returns instead) or {@link #abandon} (the run ended otherwise). A measuring run that is
 * never reported stays under way, and its size class is never measured for that candidate. Every candidate
 * computes the same results, so which one runs, and whether the launch is a measuring run, never changes what
 * the program sees.
 *
 * <p>Measuring: the first launches at a size class that needs it run on the candidates in turn, each
 * {@code samples} times (see {@link Selector.Builder}); which classes need it is {@link Decider}'s rule. Runs
 * of the original bytecode do not count until its loop has run long enough in this JVM for the JIT to have
 * compiled it (see {@link Measurements#WARM_ITERATIONS}): the program runs it as it would without LoopLift
 * meanwhile. After
 * that, the times of normal launches are compared with what was measured: when the chosen candidate takes
 * more than {@code driftFactor} times its estimate for {@code driftRuns} launches in a row at one size class
 * (other processes took the cores a parallel kernel was measured with, say), that class is measured again,
 * budget permitting; a newly chosen candidate's launches count from its first within that factor, or after
 * {@link #WARM_LAUNCHES} launches when none is.
 *
 * <p>Re-checking: a candidate's point comes from its first runs (the original loop's fastest, an offload's
 * median), which may have been timed on code the JIT had not finished with (the original loop's first runs,
 * typically, when the method holding it is entered once per launch). So after a size class is decided, its
 * 2nd, 8th, 32nd... normal launch (every fourth power of two) runs one candidate that lost there within
 * {@link Measurements#OUT_OF_REACH} of the winner again, as a measuring run (a candidate within
 * {@link Measurements#NEAR_TIE}, in a block of runs: see {@link #MAX_BLOCK}): when its latest runs there,
 * this one included, say it is faster than its point, they replace the point and the class is decided again.
 * These runs count against the measuring budget like the others, but for a block's after its first. The
 * winner, when an offload, is timed on its normal launches too: its point follows them when they are faster
 * (see {@link Measurements#followChosen}). A caller may run a choice without asking
 * for the launches its {@link Choice#untilAsked} allows, saying how many when it asks again, so that a
 * re-check still comes on time.
 * A decision persisted from an earlier run (whose re-checks were kept with it) is not re-checked: a run that
 * knows its kernels measures nothing.
 */
public final class SelectedKernel {
  /**
   * How many launches of a newly chosen candidate at a size class drift leaves out until one of them runs
   * within drift of its estimate: the candidate may be code this JVM has not compiled yet. A decision loaded
   * from the store runs cold from its first launch; counted, those launches had it measured again, and the
   * measurement taken while compiling replaced a good decision (a 2-D stencil on the jvm executor: its first
   * four launches 2.5 to 11 times its estimate, then within it). It was 16: an 800-row nest (Jama's matrix
   * product) ran its 20th to 30th launches in a new JVM at 1.2 ms against the 410 µs measured in a warm one,
   * while LoopLift's guards around it were still interpreted, and within it from about the 40th.
   */
  static final int WARM_LAUNCHES = 64;
  /**
   * The share of a measuring run's time the JIT may spend compiling (in all its threads together) before the
   * run is set aside as disturbed (see {@link Measurements#setAside}). In a program's first seconds the
   * compiler threads take processors from the candidates being measured, from a parallel one most: saxpy
   * over 2^24 floats on the jvm executor, 2 cores, measured 5.6-9.2 ms in its first launches and runs in
   * 3.6-4.3 ms from then on, while the original loop measured 5.5-6.1 ms. Slow launches of a chosen candidate
   * are no drift either while the JIT compiles for more than this share of their time: a new JVM running a
   * persisted choice compiles the kernel and LoopLift's code around it over its first thousand launches or so,
   * two to five times slower than the point measured in a warm one, and measured again then, Jama's matrix
   * product had its size class measured anew, PoCL included, for 80-300 ms. The OpenCL host process counts as
   * the JIT does beside the other candidates' runs: opening PoCL and building its first programs there, in a
   * JVM of its own, had Bench's int sum measured on the jvm executor at 3.8-4.4 ms instead of 2.3-2.6 in about
   * half the runs, and the original loop (4.1 ms) chosen.
   */
  static final double DISTURBED = 0.25;
  /**
   * The shortest measuring run {@link #DISTURBED} applies to: HotSpot counts compilation time in whole
   * milliseconds, so a shorter run would be disturbed by any compilation that ended in it.
   */
  static final long DISTURBED_MIN_NANOS = 4_000_000;
  /**
   * The longest block of re-checks. The kth re-check of a candidate within {@link Measurements#NEAR_TIE} of the
   * winner runs it {@code 2^k} launches in a row (1, 2, 4... at the 2nd, 8th, 32nd... launch), the point then
   * following its last runs: a kernel whose code the JIT has not compiled yet, or whose path through LoopLift
   * the program's other launches have not warmed, is as slow in a single re-check as it was when first
   * measured. Runs in a row give it the calls the JIT waits for. A block costs at most the candidate's margin
   * over the winner on one launch in {@code 2^(k+1)}: under 2% of a size class's launches from the fourth
   * re-check on. Its runs after the first do not count against the measuring budget.
   */
  static final int MAX_BLOCK = 64;

  private final Selector selector;
  private final Measurements m;
  private final List<String> names;
  /** The decisions made so far by size class, valid while {@link #picksVersion} is the measurements' version. */
  private final Pick[] picks = new Pick[64];
  private int picksVersion = -1;
  /** Per size class, how many normal launches in a row took longer than drift allows. */
  private final int[] slow = new int[64];
  /** Per size class, the clock and the JIT's compilation time at the first of those launches. */
  private final long[] slowSinceNanos = new long[64];
  private final long[] slowSinceCompiling = new long[64];
  /**
   * Per size class, the candidate chosen last and the launches since it was (decided again the same way or
   * not), which schedule the re-checks.
   */
  private final String[] chosen = new String[64];
  private final int[] sincePick = new int[64];
  /** {@link #nextRecheck} when no re-check is due any more; {@link #sincePick} stops counting just below it. */
  private static final int NEVER = Integer.MAX_VALUE;
  /**
   * Per size class: the candidate a block of re-checks is running (see {@link #MAX_BLOCK}), and how many runs
   * of the block are left.
   */
  private final String[] blockOf = new String[64];
  private final int[] blockLeft = new int[64];
  /** Per size class, whether the chosen candidate has run within drift of its estimate since it was chosen. */
  private final boolean[] reached = new boolean[64];
  /** The size of the latest launch, for the report; null before the first. */
  private Size latest;
  /** With a forced choice nothing is measured; the report shows each candidate's latest run instead. */
  private final Map<String, Point> forcedRuns = new LinkedHashMap<>();
  private final LaunchOverlap overlap;
  /** How many launches the program's threads run at once, as far as the processors go; {@link #picks} hold for it. */
  private int share;

  SelectedKernel(Selector selector, Measurements m, List<Candidate> candidates) {
    this.selector = selector;
    this.m = m;
    this.names = candidates.stream().map(Candidate::name).toList();
    this.overlap = new LaunchOverlap(m.overlap());
    this.share = Math.min(selector.settings().cores(), m.overlap());
  }

  /**
   * The candidate to run a launch of {@code iterations} iterations of the kernel's outermost loop, each doing
   * {@code workPerIteration} (1 for a flat loop; for a nest, the iterations of its inner loops, or an estimate
   * of them). Empty when every candidate has failed on this kernel.
   *
   * @param skipped launches of this size the caller ran as the original bytecode without asking, since it was
   *     last told so here (see {@link Choice#untilAsked}): they count as launches of that choice
   */
  public Optional<Choice> choose(long iterations, long workPerIteration, int skipped) {
    Size size = Size.of(iterations, workPerIteration);
    synchronized (m) {
      latest = size;
      if (skipped > 0) m.ranBytecode(iterations * skipped);
      long thread = Thread.currentThread().getId();
      int seen = overlap.launch(thread, selector.clock().getAsLong(), bytecodeNanos(size));
      if (m.overlapped(seen)) selector.persist(m);
      int now = Math.min(selector.settings().cores(), seen);
      if (now != share) {
        share = now;
        picksVersion = -1;
      }
      Choice c = decide(size, Math.max(0, skipped));
      // Measuring runs count when they report; the others run now.
      if (c != null && !c.measuring() && c.bytecode()) m.ranBytecode(iterations);
      return Optional.ofNullable(c);
    }
  }

  /**
   * How many times {@code candidate}'s measured time counts against the original bytecode's: the launches run
   * at once, unless its measuring runs already ran beside them (see {@link Decider#decide}).
   */
  private int share(String candidate) {
    return m.besideOthers(candidate) ? 1 : share;
  }

  /** The original bytecode's estimated time at {@code size}; 0 while it has none. */
  private long bytecodeNanos(Size size) {
    if (!names.contains(Candidate.BYTECODE)) return 0;
    CostModel.Estimate e = CostModel.estimate(m.points(Candidate.BYTECODE), size.work());
    return e == null ? 0 : (long) e.nanos();
  }

  private Choice decide(Size size, int skipped) {
    List<String> live = live();
    long now = selector.clock().getAsLong();
    if (live.isEmpty()) return null;
    Selector.Settings s = selector.settings();
    if (s.forced() != null || live.size() == 1) return new Choice(settled(live, size), size, now, Long.MAX_VALUE);
    if (picksVersion != m.version()) {
      Arrays.fill(picks, null);
      picksVersion = m.version();
    }
    int c = size.sizeClass();
    boolean remeasuring = m.remeasuring(c, live);
    if (!remeasuring && picks[c] != null) {
      int before = sincePick[c];
      int n = (int) Math.min(NEVER - 1, (long) before + 1 + skipped);
      sincePick[c] = n;
      String winner = picks[c].candidate();
      boolean measured = picks[c].source() == Source.MEASURED;
      String again = null;
      if (blockLeft[c] > 0 && measured && !blockOf[c].equals(winner) && m.usableAt(blockOf[c], live, c)) {
        again = blockOf[c];
        blockLeft[c]--;
      } else {
        blockLeft[c] = 0;
        int due = nextRecheck(before);
        int k = Integer.numberOfTrailingZeros(due) / 2;
        again = measured && due <= n ? m.recheck(winner, live, c, k) : null;
        if (again != null && m.nearTie(again, winner, c)) {
          blockOf[c] = again;
          blockLeft[c] = Math.min(MAX_BLOCK, 1 << Math.min(k, 30)) - 1;
        }
      }
      if (again != null) {
        return new Choice(again, false, true, Source.MEASURED, "re-checking " + again + " at 2^" + c, size, now, 1,
            selector.busyElsewhere(again));
      }
      return choice(picks[c], size, now, c);
    }
    Verdict verdict = selector.decider().decide(live, m::points, size, remeasuring, m.mayMeasure(1), this::share);
    if (verdict instanceof Pick pick) {
      picks[c] = pick;
      if (!pick.candidate().equals(chosen[c])) {
        chosen[c] = pick.candidate();
        sincePick[c] = 0;
        reached[c] = false;
        slow[c] = 0;
        blockLeft[c] = 0;
      }
      return choice(pick, size, now, c);
    }
    int before = m.version();
    String next = m.nextSample(((Measure) verdict).candidates(), c, s.samples());
    if (m.version() != before) selector.persist(m); // a candidate far behind was settled
    if (next != null) {
      return new Choice(next, true, false, Source.MEASURED, "measuring " + next + " at 2^" + c, size, now, 1,
          selector.busyElsewhere(next));
    }
    // Every run this class needs is under way in other threads: until they report, the best estimate.
    return new Choice(selector.decider().best(live, m::points, size, this::share), size, now, 1);
  }

  /**
   * The launch count since a pick at which its next re-check is due after {@code n}: 2, 8, 32, 128... (powers
   * of two with an odd exponent), or {@link #NEVER} past the last of them.
   */
  static int nextRecheck(int n) {
    for (int due = 2; due > 0; due <<= 2) {
      if (due > n) return due;
    }
    return NEVER;
  }

  /** The decision for a forced choice or a single usable candidate, which nothing measured can change. */
  private Pick settled(List<String> live, Size size) {
    String forced = selector.settings().forced();
    if (forced != null) return new Pick(live.get(0), Source.FORCED, forced + ": the first usable candidate");
    List<String> gone = new ArrayList<>(names);
    gone.removeAll(live);
    // Nothing measured: nothing else could run it (the others failed before measuring, or were never offered).
    List<Point> points = m.points(live.get(0));
    Source source = points.isEmpty() ? Source.FORCED
        : points.stream().allMatch(Point::persisted) ? Source.PERSISTED : Source.MEASURED;
    return new Pick(live.get(0), source, gone.isEmpty() ? "the only candidate" : "the only candidate left (" + gone
        + " failed)");
  }

  /** The choice of {@code p} at size class {@code c}, until the launch its next re-check is due at (if any). */
  private Choice choice(Pick p, Size size, long now, int c) {
    int due = p.source() == Source.MEASURED ? nextRecheck(sincePick[c]) : NEVER;
    long untilAsked = due == NEVER ? Long.MAX_VALUE : due - sincePick[c];
    return new Choice(p, size, now, untilAsked);
  }

  private List<String> live() {
    List<String> live = new ArrayList<>(names.size());
    for (String n : names) {
      if (!m.dropped(n)) live.add(n);
    }
    return live;
  }

  /** Records that {@code c} completed, taking as long as the selection's clock says passed since it was made. */
  public void record(Choice c) {
    record(c, selector.clock().getAsLong() - c.startNanos(), 0);
  }

  /**
   * Records that {@code c} completed in {@code nanos}, of which {@code transferNanos} moved arrays to and from a
   * device (0 for the others). Exclude what later launches do not pay, such as building an OpenCL program.
   */
  public void record(Choice c, long nanos, long transferNanos) {
    Size size = c.size();
    Point run = new Point(size.sizeClass(), size.iterations(), size.work(), Math.max(0, nanos),
        Math.max(0, Math.min(transferNanos, nanos)), false);
    boolean disturbed = c.measuring() && disturbed(c);
    synchronized (m) {
      if (c.measuring() && !c.bytecode()) {
        long start = c.startNanos();
        m.measuredBeside(c.candidate(), overlap.othersStarted(c.thread(), start - bytecodeNanos(size), start + nanos));
      }
      if (selector.settings().forced() != null) {
        forcedRuns.put(c.candidate(), run);
      } else if (disturbed && m.setAside(c.candidate(), run)) {
        // Run again by a later launch: this time was not the candidate's own.
      } else if (c.recheck()) {
        if (m.recheck(c.candidate(), run, selector.settings().samples())) selector.persist(m);
      } else if (c.measuring()) {
        int before = m.version();
        m.sample(c.candidate(), run, selector.settings().samples());
        if (m.version() != before) selector.persist(m); // a run counted, or a point completed
      } else {
        m.followChosen(c.candidate(), run, selector.settings().samples());
        checkDrift(c.candidate(), run);
      }
    }
  }

  /**
   * True when the JIT (or, beside another candidate, a device's process) worked for more than {@link #DISTURBED}
   * of the time since measuring run {@code c} was chosen: it took processors the run would have had.
   */
  private boolean disturbed(Choice c) {
    long compiled = selector.busyElsewhere(c.candidate()) - c.startCompiling();
    long elapsed = selector.clock().getAsLong() - c.startNanos();
    return elapsed >= DISTURBED_MIN_NANOS && compiled > DISTURBED * elapsed;
  }

  private void checkDrift(String candidate, Point run) {
    // With one usable candidate there is nothing to choose again.
    if (m.dropped(candidate) || live().size() < 2) return;
    // Against what was measured: a point following the candidate's fastest runs would make their spread drift.
    Estimate e = CostModel.estimate(m.measuredPoints(candidate), run.work());
    if (e == null) return;
    Selector.Settings s = selector.settings();
    int c = run.sizeClass();
    if (run.nanos() <= s.driftFactor() * e.nanos()) {
      slow[c] = 0;
      reached[c] = true;
    } else if (!reached[c] && sincePick[c] < WARM_LAUNCHES) {
      // Not yet as fast here as measured: still warming up, or slow from the start (counted after these).
    } else if (++slow[c] == 1) {
      slowSinceNanos[c] = selector.clock().getAsLong();
      slowSinceCompiling[c] = selector.busyElsewhere(candidate);
    } else if (slow[c] >= s.driftRuns()) {
      slow[c] = 0;
      long compiled = selector.busyElsewhere(candidate) - slowSinceCompiling[c];
      // The JIT busy all along: the candidate's code, or LoopLift's around it, still being compiled.
      if (compiled <= DISTURBED * (selector.clock().getAsLong() - slowSinceNanos[c])) {
        m.remeasure(c, live().size() * s.samples());
      }
    }
  }

  /**
   * True when an earlier run measured this kernel on candidates other than this selection's (devices) and,
   * at every size it measured, one of this selection's candidates was faster.
   */
  public boolean othersLostBefore() {
    synchronized (m) {
      return m.othersLostBefore(names, share);
    }
  }

  /**
   * Records that {@code c} ended without a time worth keeping and without the candidate being at fault: the
   * original loop threw the program's own exception, or LoopLift failed around the run. A measuring run is
   * handed to a later launch again; nothing else changes.
   */
  public void abandon(Choice c) {
    if (!c.measuring()) return;
    synchronized (m) {
      m.abandon(c.candidate(), c.size().sizeClass());
    }
  }

  /**
   * Records that {@code c} failed ({@code reason}: the executor's exception, or what verification found) and
   * returns what to run instead, the best remaining candidate; empty when none remains. The failed candidate
   * is dropped for this kernel, in this run and, through the store, in later ones.
   */
  public Optional<Choice> failed(Choice c, String reason) {
    synchronized (m) {
      m.drop(c.candidate(), reason);
      if (selector.settings().forced() == null) selector.persist(m);
    }
    return choose(c.size().iterations(), c.size().workPerIteration(), 0);
  }

  /** What the report says about this kernel: the choice at the size of its latest launch, and the times behind it. */
  public SelectionReport report() {
    synchronized (m) {
      Map<String, Double> times = new LinkedHashMap<>();
      Map<String, Double> transfers = new LinkedHashMap<>();
      Map<String, String> dropped = new LinkedHashMap<>();
      for (String n : names) {
        Point p = selector.settings().forced() != null ? forcedRuns.get(n) : m.latest(n);
        if (p == null && latest != null) p = m.fastestSample(n, latest.sizeClass());
        if (p != null) {
          times.put(n, p.nanosPerIteration());
          if (p.transferNanos() > 0) transfers.put(n, p.transferNanosPerIteration());
        }
        if (m.dropped(n)) dropped.put(n, m.droppedReason(n));
      }
      List<String> live = live();
      Pick now = null;
      if (latest != null && !live.isEmpty()) {
        boolean settled = live.size() == 1 || selector.settings().forced() != null;
        now = settled ? settled(live, latest) : selector.decider().best(live, m::points, latest, this::share);
        if (!settled && selector.decider().decide(live, m::points, latest, m.remeasuring(latest.sizeClass(), live),
            m.mayMeasure(1), this::share) instanceof Measure) {
          String fastest = now.candidate();
          for (Map.Entry<String, Double> t : times.entrySet()) {
            if (live.contains(t.getKey()) && t.getValue() < times.getOrDefault(fastest, Double.MAX_VALUE)) fastest = t.getKey();
          }
          now = new Pick(fastest, Source.MEASURING, "measuring at 2^" + latest.sizeClass() + ", the fastest so far");
        }
      }
      return new SelectionReport(now == null ? null : now.candidate(), now == null ? null : now.source(),
          now == null ? (latest == null ? "not launched" : "every candidate failed") : now.why(), times, transfers,
          dropped, m.runs(), m.runNanos(), m.drifts());
    }
  }
}
