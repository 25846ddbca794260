package io.looplift.tracecache;

import java.util.Arrays;

/**
 * Builds the {@link TraceKey} of a sequence of entries as they are queued, in O(1) amortized time per item.
 *
 * <p>Objects and values are not kept in the key; their equality classes are. A class is the index of the
 * first appearance among the items of that kind added since the last {@link #reset}, so "entry 0 slot 1 is
 * the same array as entry 2 slot 0" gives the same key whatever the arrays are, and the key of the first
 * {@code n} entries ({@link #key(int)}) equals what a fresh accumulator fed only those entries would give.
 *
 * <p>Not thread-safe: each program thread owns one and reuses it across flushes.
 */
public final class KeyAccumulator {
  private int[] codes = new int[64];
  private int size;
  /** Per entry: the offset of its first code, and the hash of the codes before it. */
  private int[] entryStarts = new int[16];
  private int[] hashesAtStart = new int[16];
  private int entries;
  private int hash = TraceKey.EMPTY_HASH;
  private final IdentityClasses identities = new IdentityClasses();
  private final ValueClasses values = new ValueClasses();

  /** Starts the next entry, launched from loop site {@code siteId}. */
  public void beginEntry(int siteId) {
    if (entries == entryStarts.length) {
      entryStarts = Arrays.copyOf(entryStarts, entries * 2);
      hashesAtStart = Arrays.copyOf(hashesAtStart, entries * 2);
    }
    entryStarts[entries] = size;
    hashesAtStart[entries] = hash;
    entries++;
    append(TraceKey.SITE, siteId);
  }

  /**
   * Adds an object compared by identity: an array, or a placeholder standing for an array not allocated
   * yet.
   */
  public void identity(Object o) {
    requireEntry();
    append(TraceKey.IDENTITY, identities.classOf(o));
  }

  /** Adds a value compared by equality: an array length, a loop start, a trip count. */
  public void value(long v) {
    requireEntry();
    append(TraceKey.VALUE, values.classOf(v));
  }

  /** Adds a code that is itself part of the key: an element-type code, a flag. */
  public void literal(int v) {
    requireEntry();
    append(TraceKey.LITERAL, v);
  }

  /** The number of entries begun since the last reset. */
  public int entries() { return entries; }

  /** The key of every entry added since the last reset. */
  public TraceKey key() {
    return key(entries);
  }

  /** The key of the first {@code n} entries, equal to a fresh accumulator's fed only those entries. */
  public TraceKey key(int n) {
    checkEntryCount(n);
    int length = codeLength(n);
    int firstEntryLength = n == 0 ? 0 : codeLength(1);
    return new TraceKey(Arrays.copyOf(codes, length), n, firstEntryLength, hashOf(n));
  }

  /** Forgets every entry, keeping the storage for the next sequence. */
  public void reset() {
    size = 0;
    entries = 0;
    hash = TraceKey.EMPTY_HASH;
    identities.clear();
    values.clear();
  }

  /** Whether {@code key} is the key of the first {@code key.entries()} entries, without building that key. */
  boolean startsWith(TraceKey key) {
    int n = key.entries();
    if (n > entries || hashOf(n) != key.hashCode()) return false;
    int[] other = key.codes();
    return Arrays.equals(codes, 0, codeLength(n), other, 0, other.length);
  }

  private int codeLength(int n) {
    return n == entries ? size : entryStarts[n];
  }

  private int hashOf(int n) {
    return n == entries ? hash : hashesAtStart[n];
  }

  private void checkEntryCount(int n) {
    if (n < 0 || n > entries) throw new IndexOutOfBoundsException("entries " + n + " of " + entries);
  }

  private void requireEntry() {
    if (entries == 0) throw new IllegalStateException("beginEntry first");
  }

  private void append(int tag, int payload) {
    if (size + 2 > codes.length) codes = Arrays.copyOf(codes, codes.length * 2);
    codes[size++] = tag;
    codes[size++] = payload;
    hash = TraceKey.extendHash(TraceKey.extendHash(hash, tag), payload);
  }
}
