package io.looplift.executors.select;

import io.looplift.executors.select.CostModel.Estimate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The decision rule: given what was measured for each usable candidate of a kernel, which one a launch of a
 * given size runs on, or that this size must be measured first.
 *
 * <ul>
 *   <li>When measuring is not allowed (the kernel's measuring budget is spent, or every measuring run this class
 *       needs is already under way): the fastest by estimate, whatever its margin.
 *   <li>At a size class being measured again after a drift: measure every candidate.
 *   <li>At a size class where every candidate was measured: the fastest there, the original bytecode winning
 *       unless an offload is {@link #OFFLOAD_MARGIN} faster.
 *   <li>When some candidates have no measured size on both sides of the class (a new kernel, a size beyond every
 *       measured one, a device measured at other sizes than the rest): measure those first; but not an offload
 *       {@link Measurements#FAR_BEHIND} times slower than the bytecode at its smallest measured size, at a
 *       smaller one, nor the original bytecode that far behind an offload at its largest, at a larger one (see
 *       {@link #farBehindBeyond}).
 *   <li>Otherwise, the fastest by {@link CostModel} estimate, provided the runner-up is estimated at least
 *       {@code trust} times slower; closer than that, interpolation could be on the wrong side of a crossover,
 *       so measure every candidate there.
 * </ul>
 */
final class Decider {
  /** What a launch does: run a candidate ({@link Pick}) or measure some ({@link Measure}). */
  sealed interface Verdict permits Pick, Measure {}

  /** Run {@code candidate}; {@code why} says why, for the log. */
  record Pick(String candidate, Source source, String why) implements Verdict {}

  /**
   * Measure the size class: first {@code candidates}, those with nothing measured around it, since their
   * measurement may settle the choice alone; the caller measures only candidates not yet measured there.
   */
  record Measure(List<String> candidates) implements Verdict {}

  /**
   * How much faster than the original bytecode an offload must measure to be chosen over it: an offload's
   * time leaves out what surrounds its launch on the program thread (guards, the queue, the read point). It
   * was 1.15 while the first runs of a candidate were all it was measured by; with runs beside the JIT set
   * aside, re-checks that reach sites settled on their bytecode and a persisted choice's cold launches kept
   * out of drift, saxpy over 2^24 floats on 2 cores measured the jvm executor 0-15% faster than the bytecode
   * and ran 1.5-1.6 times as fast as plain Java on it, and the margin kept it on the bytecode.
   */
  static final double OFFLOAD_MARGIN = 1.05;

  private final double trust;

  /** @param trust how many times slower the runner-up must be estimated to trust an interpolation, above 1 */
  Decider(double trust) {
    if (!(trust > 1)) throw new IllegalArgumentException("trust " + trust);
    this.trust = trust;
  }

  /**
   * What to do at {@code size}.
   *
   * @param live the usable candidates, in the caller's order
   * @param points each candidate's measured points, ordered by size class
   * @param remeasuring the class is being measured again: nothing is trusted there
   * @param mayMeasure measuring is allowed; when not, the verdict is a {@link Pick}
   * @param share per candidate, how many times its measured time counts against the original bytecode: as many
   *     launches of the kernel as the program's threads run at once, as far as the processors go
   *     ({@link LaunchOverlap}), for an offload measured alone (it takes the processors, or the device, for one
   *     of them after the other, while the original bytecode runs in each of those threads); 1 otherwise
   */
  Verdict decide(List<String> live, Function<String, List<Point>> points, Size size, boolean remeasuring,
      boolean mayMeasure, ToIntFunction<String> share) {
    List<Ranked> ranked = rank(live, points, size, share);
    if (!mayMeasure) return best(live, ranked, size, share);
    if (remeasuring) return new Measure(live);
    List<Ranked> near = new ArrayList<>(ranked);
    near.removeIf(r -> farBehindBeyond(r, ranked, size.sizeClass()));
    if (near.isEmpty()) near = ranked; // noise said each loses to the others: measure them all
    List<String> candidates = new ArrayList<>(live);
    for (Ranked r : ranked) {
      if (!near.contains(r)) candidates.remove(r.candidate);
    }
    if (near.size() == candidates.size() && near.stream().allMatch(r -> r.measuredAt(size.sizeClass()))) {
      return pick(near, "fastest measured at 2^" + size.sizeClass(), share);
    }
    List<String> unknown = new ArrayList<>(candidates);
    for (Ranked r : near) {
      if (r.estimate.bracketed()) unknown.remove(r.candidate);
    }
    if (!unknown.isEmpty()) return new Measure(unknown);
    if (margin(near) >= trust) {
      return pick(near, "interpolated at 2^" + size.sizeClass() + " between measured sizes", share);
    }
    return new Measure(candidates);
  }

  /**
   * True when {@code r} need not be measured at {@code sizeClass}, beyond the sizes it was measured at, because
   * it was {@link Measurements#FAR_BEHIND} times slower at the nearest of them, on the side where its gap only
   * widens: an offload slower than the original bytecode, below its smallest measured size (its fixed costs,
   * the pool's hand-off or a device's launch and transfers, weigh more on less work); the original bytecode
   * slower than an offload, above its largest (the offload's rate counts more on more work). A triangular
   * solve launches its nest once per row, each launch smaller than the last: every new size class was measured
   * on every candidate, and a PoCL device 40 times behind took 300 ms and most of the kernel's measuring
   * budget, which the re-checks of the close candidates then lacked. Far behind, not merely out of reach: a
   * point of the pool taken while its kernel was still cold can be five times the bytecode's, and left out
   * below that, the pool was never measured where it ran twice as fast.
   */
  private static boolean farBehindBeyond(Ranked r, List<Ranked> ranked, int sizeClass) {
    if (r.points.isEmpty()) return false;
    boolean bytecode = r.candidate.equals(Candidate.BYTECODE);
    Point nearest = bytecode ? r.points.get(r.points.size() - 1) : r.points.get(0);
    if (bytecode ? sizeClass <= nearest.sizeClass() : sizeClass >= nearest.sizeClass()) return false;
    for (Ranked other : ranked) {
      // Against the bytecode: one offload far behind another may still beat the bytecode on less work.
      if (other == r || !bytecode && !other.candidate.equals(Candidate.BYTECODE)) continue;
      for (Point p : other.points) {
        if (p.sizeClass() == nearest.sizeClass() && nearest.nanosPerWork() >= Measurements.FAR_BEHIND * p.nanosPerWork()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The fastest by estimate whatever its margin, for a launch that cannot be a measuring run; the first of
   * {@code live} (the caller's preference) when nothing was measured yet.
   */
  Pick best(List<String> live, Function<String, List<Point>> points, Size size, ToIntFunction<String> share) {
    return best(live, rank(live, points, size, share), size, share);
  }

  private static Pick best(List<String> live, List<Ranked> ranked, Size size, ToIntFunction<String> share) {
    if (ranked.isEmpty()) return new Pick(live.get(0), Source.MEASURED, "nothing measured yet: the first candidate");
    if (ranked.stream().allMatch(r -> r.measuredAt(size.sizeClass()))) {
      return pick(ranked, "fastest measured at 2^" + size.sizeClass(), share);
    }
    return pick(ranked, "estimated at 2^" + size.sizeClass() + " (not measuring now)", share);
  }

  /** One candidate's estimate; {@code points} is what it came from. */
  private record Ranked(String candidate, Estimate estimate, List<Point> points) {
    boolean measuredAt(int sizeClass) {
      return points.stream().anyMatch(p -> p.sizeClass() == sizeClass);
    }
  }

  /**
   * The candidates that have an estimate, fastest first (ties in the caller's order), an offload counting
   * {@link #OFFLOAD_MARGIN} times its {@code share} slower than measured against the original bytecode.
   */
  private static List<Ranked> rank(List<String> live, Function<String, List<Point>> points, Size size,
      ToIntFunction<String> share) {
    List<Ranked> ranked = new ArrayList<>();
    for (String c : live) {
      List<Point> p = points.apply(c);
      Estimate e = CostModel.estimate(p, size.work());
      if (e != null) ranked.add(new Ranked(c, e, p));
    }
    boolean bytecode = ranked.stream().anyMatch(r -> r.candidate.equals(Candidate.BYTECODE));
    ranked.sort(Comparator.comparingDouble(r -> bytecode && !r.candidate.equals(Candidate.BYTECODE)
        ? r.estimate.nanos() * OFFLOAD_MARGIN * share.applyAsInt(r.candidate) : r.estimate.nanos()));
    return ranked;
  }

  private static double margin(List<Ranked> ranked) {
    return ranked.size() < 2 ? Double.POSITIVE_INFINITY
        : ranked.get(1).estimate.nanos() / Math.max(1e-9, ranked.get(0).estimate.nanos());
  }

  private static Pick pick(List<Ranked> ranked, String basis, ToIntFunction<String> share) {
    boolean persisted = ranked.stream().allMatch(r -> r.estimate.persisted());
    boolean bytecode = ranked.stream().anyMatch(r -> r.candidate.equals(Candidate.BYTECODE));
    int most = ranked.stream().filter(r -> !r.candidate.equals(Candidate.BYTECODE))
        .mapToInt(r -> share.applyAsInt(r.candidate)).max().orElse(1);
    String shared = most > 1 && bytecode
        ? " (" + most + " launches at once: an offload measured alone counts " + most + " times)" : "";
    StringJoiner why = new StringJoiner(", ", basis + shared + ": ", "");
    for (Ranked r : ranked) why.add(r.candidate + " " + Durations.format(r.estimate.nanos()));
    return new Pick(ranked.get(0).candidate, persisted ? Source.PERSISTED : Source.MEASURED, why.toString());
  }
}
