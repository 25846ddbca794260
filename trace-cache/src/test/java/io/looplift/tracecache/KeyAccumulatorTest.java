package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KeyAccumulatorTest {

  /** Feeds one launch: site, two arrays, a length per array, a start, an element-type literal. */
  private static void launch(KeyAccumulator acc, int site, Object a, Object b, long lenA, long lenB, long start) {
    acc.beginEntry(site);
    acc.identity(a);
    acc.identity(b);
    acc.value(lenA);
    acc.value(lenB);
    acc.value(start);
    acc.literal(3);
  }

  /**
   * Five launches in which arrays and lengths recur across entries, built from {@code arrays} (at least 4)
   * and lengths scaled by {@code scale}.
   */
  private static KeyAccumulator fiveLaunches(Object[] arrays, long scale) {
    KeyAccumulator acc = new KeyAccumulator();
    feedFirst(acc, 5, arrays, scale);
    return acc;
  }

  private static void feedFirst(KeyAccumulator acc, int n, Object[] arrays, long scale) {
    Object[][] slots = {
        {arrays[0], arrays[1]}, {arrays[1], arrays[2]}, {arrays[0], arrays[0]}, {arrays[3], arrays[2]},
        {arrays[3], arrays[1]}};
    long[][] lengths = {{100, 100}, {100, 50}, {100, 100}, {7, 50}, {7, 100}};
    int[] sites = {4, 5, 4, 6, 5};
    for (int i = 0; i < n; i++) {
      launch(acc, sites[i], slots[i][0], slots[i][1], lengths[i][0] * scale, lengths[i][1] * scale, i * scale);
    }
  }

  private static Object[] newArrays() {
    return new Object[] {new float[1], new float[2], new int[3], new double[4]};
  }

  @Test
  void samePatternWithOtherObjectsAndValuesGivesEqualKeys() {
    TraceKey k1 = fiveLaunches(newArrays(), 1).key();
    TraceKey k2 = fiveLaunches(newArrays(), 1000).key();
    assertEquals(k1, k2);
    assertEquals(k1.hashCode(), k2.hashCode());
    assertEquals(5, k1.entries());
  }

  @Test
  void oneArrayInTwoSlotsDiffersFromTwoArrays() {
    float[] a = new float[8];
    KeyAccumulator same = new KeyAccumulator();
    launch(same, 1, a, a, 8, 8, 0);
    KeyAccumulator distinct = new KeyAccumulator();
    launch(distinct, 1, a, new float[8], 8, 8, 0);
    assertNotEquals(same.key(), distinct.key());
  }

  @Test
  void theEqualityRelationOfLengthsMatters() {
    float[] a = new float[8];
    float[] b = new float[8];
    KeyAccumulator equalLengths = new KeyAccumulator();
    launch(equalLengths, 1, a, b, 8, 8, 0);
    KeyAccumulator differentLengths = new KeyAccumulator();
    launch(differentLengths, 1, a, b, 8, 9, 0);
    assertNotEquals(equalLengths.key(), differentLengths.key());
  }

  @Test
  void siteIdsAndLiteralsMatter() {
    KeyAccumulator base = new KeyAccumulator();
    base.beginEntry(1);
    base.literal(3);
    KeyAccumulator otherSite = new KeyAccumulator();
    otherSite.beginEntry(2);
    otherSite.literal(3);
    KeyAccumulator otherLiteral = new KeyAccumulator();
    otherLiteral.beginEntry(1);
    otherLiteral.literal(4);
    assertNotEquals(base.key(), otherSite.key());
    assertNotEquals(base.key(), otherLiteral.key());
  }

  @Test
  void kindsOfItemWithTheSameNumberStayApart() {
    KeyAccumulator identity = new KeyAccumulator();
    identity.beginEntry(0);
    identity.identity(new int[0]); // identity class 0
    KeyAccumulator value = new KeyAccumulator();
    value.beginEntry(0);
    value.value(42); // value class 0
    KeyAccumulator literal = new KeyAccumulator();
    literal.beginEntry(0);
    literal.literal(0);
    assertNotEquals(identity.key(), value.key());
    assertNotEquals(identity.key(), literal.key());
    assertNotEquals(value.key(), literal.key());
  }

  @Test
  void prefixKeyEqualsTheKeyOfAFreshAccumulatorFedOnlyThoseEntries() {
    Object[] arrays = newArrays();
    KeyAccumulator all = fiveLaunches(arrays, 1);
    for (int n = 0; n <= 5; n++) {
      KeyAccumulator fresh = new KeyAccumulator();
      feedFirst(fresh, n, arrays, 1);
      assertEquals(fresh.key(), all.key(n), "first " + n + " entries");
      assertEquals(n, all.key(n).entries());
    }
    assertNotEquals(all.key(4), all.key(5));
  }

  @Test
  void firstEntryOfAKeyIsTheKeyOfItsFirstEntry() {
    KeyAccumulator acc = fiveLaunches(newArrays(), 1);
    assertEquals(acc.key(1), acc.key().firstEntry());
    assertThrows(IllegalStateException.class, () -> acc.key(0).firstEntry());
  }

  @Test
  void resetStartsANewSequenceAndLeavesEarlierKeysAlone() {
    KeyAccumulator acc = fiveLaunches(newArrays(), 1);
    TraceKey before = acc.key();
    acc.reset();
    assertEquals(0, acc.entries());

    float[] a = new float[4];
    launch(acc, 9, a, a, 4, 4, 4);
    KeyAccumulator fresh = new KeyAccumulator();
    float[] b = new float[2];
    launch(fresh, 9, b, b, 2, 2, 2);
    assertEquals(fresh.key(), acc.key());
    assertEquals(fiveLaunches(newArrays(), 1).key(), before);
  }

  @Test
  void itemsBeforeTheFirstEntryAreRejected() {
    KeyAccumulator acc = new KeyAccumulator();
    assertThrows(IllegalStateException.class, () -> acc.value(1));
    assertThrows(IndexOutOfBoundsException.class, () -> acc.key(1));
  }

  @Test
  void tenThousandEntriesKeepTheirPattern() {
    int n = 10_000;
    KeyAccumulator base = longSequence(n, 1, false);
    KeyAccumulator scaled = longSequence(n, 3, false);
    KeyAccumulator lastDiffers = longSequence(n, 1, true);
    assertEquals(n, base.entries());
    assertEquals(base.key(), scaled.key());
    assertEquals(base.key(n / 2), scaled.key(n / 2));
    assertEquals(base.key(n - 1), lastDiffers.key(n - 1));
    assertNotEquals(base.key(), lastDiffers.key());
  }

  /**
   * Each entry reads a new array and one first read a third as many entries back; lengths and starts
   * repeat. Scaling every value keeps their equality pattern.
   */
  private static KeyAccumulator longSequence(int n, long scale, boolean freshArrayLast) {
    KeyAccumulator acc = new KeyAccumulator();
    Object[] arrays = new Object[n];
    for (int i = 0; i < n; i++) {
      arrays[i] = new byte[1];
      Object second = freshArrayLast && i == n - 1 ? new byte[1] : arrays[i / 3];
      launch(acc, i % 13, arrays[i], second, (i % 7) * scale, i * scale, (i % 5) * scale);
    }
    return acc;
  }

  @Test
  void keysWithCollidingHashesAreNotEqual() {
    KeyAccumulator[] queues = collidingQueues();
    TraceKey a = queues[0].key();
    TraceKey b = queues[1].key();
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, b);
  }

  /**
   * Two queues with the same first entry whose keys differ but hash alike: the first literal's code has two
   * codes after it, so raising it by one and lowering the last by 31 * 31 keeps a polynomial hash of base 31.
   */
  static KeyAccumulator[] collidingQueues() {
    KeyAccumulator a = new KeyAccumulator();
    a.beginEntry(1);
    a.beginEntry(2);
    a.literal(10);
    a.literal(5000);
    KeyAccumulator b = new KeyAccumulator();
    b.beginEntry(1);
    b.beginEntry(2);
    b.literal(11);
    b.literal(5000 - 31 * 31);
    return new KeyAccumulator[] {a, b};
  }
}
