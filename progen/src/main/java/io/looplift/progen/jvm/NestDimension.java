package io.looplift.progen.jvm;

import io.looplift.ir.Affine;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;

/**
 * The dimension of a loop nest that a {@link NestKernel} runs a range of, and so the one an executor splits:
 * the outermost loop, or the band of an {@link LoopTemplate#ordered ordered} template. A kernel runs the band
 * outermost, with the template's outermost loop in order inside each band iteration, which needs the band to
 * have the same iterations in every outer iteration (its predicate and bounds invariant) and no reduction
 * across the outermost loop; an ordered template without these runs whole, in Java's order. Immutable.
 */
public final class NestDimension {
  private final LoopTemplate template;
  private final Loop band;

  private NestDimension(LoopTemplate template, Loop band) {
    this.template = template;
    this.band = band;
  }

  /** The dimension of {@code t}'s kernels. */
  public static NestDimension of(LoopTemplate t) {
    if (t.ordered() && t.reductions().isEmpty() && t.body().get(0) instanceof Loop l
        && Affine.isInvariant(l.predicate()) && Affine.isInvariant(l.start()) && Affine.isInvariant(l.limit())) {
      return new NestDimension(t, l);
    }
    return new NestDimension(t, null);
  }

  /** The band loop whose iterations the dimension counts, or null when it counts the outermost loop's. */
  Loop band() {
    return band;
  }

  /** True when the dimension is the band of an ordered template (see the class comment). */
  public boolean isBand() {
    return band != null;
  }

  /**
   * True when separate ranges of the dimension may run at once (each computing partial reductions when the
   * template has any): always for a band, for the outermost loop when {@link LoopTemplate#isParallel} holds.
   */
  public boolean isParallel(boolean reassociate) {
    return band != null || template.isParallel(reassociate);
  }

  /**
   * How many values the dimension takes in a launch of {@code trips} outer iterations with parameters
   * {@code params}: {@code trips}, or the band's trip count (0 when its predicate fails or {@code trips} is 0).
   *
   * @throws IllegalStateException when the band would not count (guards rule that out)
   */
  public int size(long[] params, int trips) {
    if (band == null) return trips;
    if (trips == 0) return 0;
    Interpreter in = new Interpreter(new Object[0], params, new long[0]);
    // The predicate first: Java evaluates the bounds only where it holds.
    if (in.evaluate(band.predicate(), 0) == 0) return 0;
    long n = band.shape().trips((int) in.evaluate(band.start(), 0), (int) in.evaluate(band.limit(), 0));
    if (n < 0) throw new IllegalStateException("the band does not count");
    return (int) n;
  }
}
