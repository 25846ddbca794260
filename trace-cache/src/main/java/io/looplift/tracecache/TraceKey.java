package io.looplift.tracecache;

import java.util.Arrays;

/**
 * The key of a sequence of loop launches ("entries"), as a {@link KeyAccumulator} builds it: each entry's
 * site id and the equality pattern of its arrays, values and literals, but not the objects or values
 * themselves. Two sequences with equal keys can run the same compiled program.
 *
 * <p>Immutable. The codes are pairs (tag, payload); every entry starts with a {@link #SITE} pair, so equal
 * codes mean the same entries with the same boundaries.
 */
public final class TraceKey {
  static final int SITE = 1;
  static final int IDENTITY = 2;
  static final int VALUE = 3;
  static final int LITERAL = 4;

  /** The hash of no codes; {@link #extendHash} folds in one more (the same hash as {@link Arrays#hashCode}). */
  static final int EMPTY_HASH = 1;

  private final int[] codes;
  private final int entries;
  private final int firstEntryLength;
  private final int hash;

  /**
   * @param codes owned by the key from now on
   * @param firstEntryLength the number of codes of the first entry (0 when there are no entries)
   * @param hash the hash of {@code codes}, as {@link #extendHash} computes it
   */
  TraceKey(int[] codes, int entries, int firstEntryLength, int hash) {
    this.codes = codes;
    this.entries = entries;
    this.firstEntryLength = firstEntryLength;
    this.hash = hash;
  }

  static int extendHash(int hash, int code) {
    return 31 * hash + code;
  }

  /** The number of entries in the sequence. */
  public int entries() { return entries; }

  /**
   * The key of the first entry alone, as a fresh accumulator fed only that entry would give.
   *
   * @throws IllegalStateException when the key has no entries
   */
  public TraceKey firstEntry() {
    if (entries == 0) throw new IllegalStateException("no entries");
    if (entries == 1) return this;
    int[] first = Arrays.copyOf(codes, firstEntryLength);
    return new TraceKey(first, 1, firstEntryLength, Arrays.hashCode(first));
  }

  int[] codes() { return codes; }

  @Override
  public boolean equals(Object o) {
    if (o == this) return true;
    if (!(o instanceof TraceKey)) return false;
    TraceKey k = (TraceKey) o;
    return hash == k.hash && entries == k.entries && Arrays.equals(codes, k.codes);
  }

  @Override
  public int hashCode() { return hash; }

  /** The codes decoded, one entry per group: {@code [site 7: id0 id1 len0 lit3 | site 9: ...]}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("TraceKey[");
    for (int i = 0; i < codes.length; i += 2) {
      int payload = codes[i + 1];
      switch (codes[i]) {
        case SITE:
          if (i > 0) s.append(" | ");
          s.append("site ").append(payload).append(':');
          break;
        case IDENTITY:
          s.append(" id").append(payload);
          break;
        case VALUE:
          s.append(" val").append(payload);
          break;
        default:
          s.append(" lit").append(payload);
      }
    }
    return s.append(']').toString();
  }
}
