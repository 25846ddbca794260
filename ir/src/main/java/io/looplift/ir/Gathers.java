package io.looplift.ir;

/**
 * Gathers, the one kind of index that is not affine and may still be offloaded: a read at an index loaded
 * from a one-dimensional int array at an affine index ({@code x[perm[i]]}). The analyzer accepts such reads
 * when the loop writes neither array; the guard scans the index array over the range a launch reads.
 */
public final class Gathers {
  private Gathers() {}

  /** The load {@code index} is when it is a gather's index; null otherwise. */
  public static Load indices(Node index) {
    return index instanceof Load l && l.row() == null && l.elementType() == Type.INT && Affine.of(l.index()) != null
        ? l : null;
  }
}
