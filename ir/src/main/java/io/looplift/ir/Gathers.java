package io.looplift.ir;

import java.util.List;
import java.util.Objects;

/**
 * Gathers, the one kind of index that is not affine in the loop variables and may still be offloaded: an
 * affine function {@code offset + scale · v} of one value {@code v} loaded from a one-dimensional int array at an
 * affine index, with {@code scale} and {@code offset} invariant ({@code x[perm[i]]}, {@code x[idx[i] - 1]},
 * {@code x[base + 2 * code[i]]}). The analyzer accepts such reads when the loop writes neither array; the guard
 * scans the index array over the range a launch reads and checks the ends of the function over what it found.
 *
 * @param indices the load of the gathered value
 * @param scale invariant
 * @param offset invariant
 */
public record Gathers(Load indices, Node scale, Node offset) {
  /** Stands for the gathered value while the index is decomposed: no loop has this id. */
  private static final LoopVar VALUE = new LoopVar(Integer.MIN_VALUE);

  /** The decomposition of {@code index} when it is a gather's; null otherwise. */
  public static Gathers of(Node index) {
    Load indices = null;
    for (Node n : Nodes.postOrder(List.of(index))) {
      if (!(n instanceof Load l)) continue;
      if (indices != null && !indices.equals(l) || l.row() != null || l.elementType() != Type.INT
          || Affine.of(l.index()) == null) {
        return null;
      }
      indices = l;
    }
    if (indices == null) return null;
    Load gathered = indices;
    Affine a = Affine.of(Nodes.rewrite(index, n -> n.equals(gathered) ? VALUE : n));
    if (a == null || a.coefficients().size() != 1 || !a.coefficients().containsKey(VALUE)) return null;
    return new Gathers(indices, a.coefficient(VALUE), a.constant());
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof Gathers g && Objects.equals(indices, g.indices) && Objects.equals(scale, g.scale)
        && Objects.equals(offset, g.offset);
  }

  @Override
  public int hashCode() { return Objects.hash(indices, scale, offset); }
}
