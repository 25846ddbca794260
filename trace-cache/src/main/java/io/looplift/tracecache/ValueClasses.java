package io.looplift.tracecache;

/**
 * Numbers {@code long} values in order of first appearance: the n-th distinct value seen gets class n.
 * An open-addressing table without boxing, which {@link #clear} empties in time proportional to what it
 * holds, not to its capacity.
 */
final class ValueClasses {
  private long[] keys = new long[16];
  /** Class + 1 per slot; 0 marks an empty slot. */
  private int[] classesPlusOne = new int[16];
  private int[] slotOfClass = new int[8];
  private int count;

  /** The class of {@code v}, assigning the next one when {@code v} is new. */
  int classOf(long v) {
    int mask = keys.length - 1;
    int i = slot(v, mask);
    for (; classesPlusOne[i] != 0; i = (i + 1) & mask) {
      if (keys[i] == v) return classesPlusOne[i] - 1;
    }
    int c = count++;
    keys[i] = v;
    classesPlusOne[i] = c + 1;
    slotOfClass[c] = i;
    if (count == keys.length / 2) grow(); // keeps the table at most half full
    return c;
  }

  /** Forgets every value. */
  void clear() {
    for (int c = 0; c < count; c++) classesPlusOne[slotOfClass[c]] = 0;
    count = 0;
  }

  private void grow() {
    long[] oldKeys = keys;
    keys = new long[oldKeys.length * 2];
    classesPlusOne = new int[keys.length];
    int[] oldSlots = slotOfClass;
    slotOfClass = new int[keys.length / 2];
    int mask = keys.length - 1;
    for (int c = 0; c < count; c++) {
      long v = oldKeys[oldSlots[c]];
      int i = slot(v, mask);
      while (classesPlusOne[i] != 0) i = (i + 1) & mask;
      keys[i] = v;
      classesPlusOne[i] = c + 1;
      slotOfClass[c] = i;
    }
  }

  private static int slot(long v, int mask) {
    long h = v * 0x9E3779B97F4A7C15L;
    return ((int) (h >>> 32) ^ (int) h) & mask;
  }
}
