package io.looplift.runtime;

/**
 * The aliasing rule of a flat loop: a written argument may be passed again only where the loop reads before
 * it writes and every access to either touches the same element in each iteration (in-place calls such as
 * {@code scale(x, k, x)}). Region placeholders ({@link TempArray}) compare by identity like arrays. Immutable.
 */
final class FlatAliasing implements AliasRule {
  private final boolean[] written;
  private final ArrayAccess[] accesses;

  FlatAliasing(boolean[] written, ArrayAccess[] accesses) {
    this.written = written;
    this.accesses = accesses;
  }

  @Override
  public String check(Object[] arrays, long[] slots, GuardScratch s, boolean readsBeforeWrites) {
    for (int a = 0; a < written.length; a++) {
      if (!written[a]) continue;
      for (int b = 0; b < arrays.length; b++) {
        if (b != a && arrays[a] == arrays[b] && !(readsBeforeWrites && sameElements(slots, a, b))) {
          return "array " + a + " is written and is also array " + b + " at another element or order";
        }
      }
    }
    return null;
  }

  /** True when every access to arguments {@code a} and {@code b} has the same index in each iteration. */
  private boolean sameElements(long[] slots, int a, int b) {
    AffineCode ref = null;
    for (ArrayAccess x : accesses) {
      if (x.array != a && x.array != b) continue;
      if (ref == null) {
        ref = x.index;
      } else if (x.index.coefficient(0, slots) != ref.coefficient(0, slots) || x.index.constant(slots) != ref.constant(slots)) {
        return false;
      }
    }
    return true;
  }
}
