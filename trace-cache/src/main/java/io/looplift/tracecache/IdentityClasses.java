package io.looplift.tracecache;

/**
 * Numbers objects by identity in order of first appearance: the n-th distinct object seen gets class n.
 * An open-addressing table that {@link #clear} empties in time proportional to what it holds, not to its
 * capacity, so a reused table stays cheap after one long sequence.
 */
final class IdentityClasses {
  private Object[] keys = new Object[16];
  private int[] classes = new int[16];
  private int[] slotOfClass = new int[8];
  private int count;

  /** The class of {@code o}, assigning the next one when {@code o} is new. */
  int classOf(Object o) {
    if (o == null) throw new NullPointerException("identity object");
    int mask = keys.length - 1;
    int i = slot(o, mask);
    for (Object k; (k = keys[i]) != null; i = (i + 1) & mask) {
      if (k == o) return classes[i];
    }
    int c = count++;
    keys[i] = o;
    classes[i] = c;
    slotOfClass[c] = i;
    if (count == keys.length / 2) grow(); // keeps the table at most half full
    return c;
  }

  /** Forgets every object (and drops the references to them). */
  void clear() {
    for (int c = 0; c < count; c++) keys[slotOfClass[c]] = null;
    count = 0;
  }

  private void grow() {
    Object[] oldKeys = keys;
    keys = new Object[oldKeys.length * 2];
    classes = new int[keys.length];
    int[] oldSlots = slotOfClass;
    slotOfClass = new int[keys.length / 2];
    int mask = keys.length - 1;
    for (int c = 0; c < count; c++) {
      Object o = oldKeys[oldSlots[c]];
      int i = slot(o, mask);
      while (keys[i] != null) i = (i + 1) & mask;
      keys[i] = o;
      classes[i] = c;
      slotOfClass[c] = i;
    }
  }

  private static int slot(Object o, int mask) {
    int h = System.identityHashCode(o) * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }
}
