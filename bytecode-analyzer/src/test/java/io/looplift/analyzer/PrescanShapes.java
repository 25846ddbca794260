package io.looplift.analyzer;

/**
 * Methods for {@link LoopPrescanTest}, named for what the pre-scan must make of them: {@code in*} have a
 * loop that reads or writes array elements (themselves or through a helper of this class called from the
 * loop), or that calls a method of another class the analyzer may inline, {@code out*} have none; {@code inRejected*} loops hold an instruction the analyzer always rejects,
 * the other {@code in*} ones may be offloaded.
 */
final class PrescanShapes {
  private static int counter;

  private PrescanShapes() {}

  static void inMap(float[] a, float[] b) {
    for (int i = 0; i < a.length; i++) b[i] = a[i] * 2;
  }

  static long inDoWhile(long[] a) {
    long s = 0;
    int i = 0;
    do {
      s += a[i++];
    } while (i < a.length);
    return s;
  }

  static double inRows(double[][] m) {
    double s = 0;
    for (int i = 0; i < m.length; i++) {
      double[] row = m[i];
      s += row.length;
    }
    return s;
  }

  static int inWhileWithContinue(int[] a) {
    int n = 0;
    int i = 0;
    while (i < a.length) {
      i++;
      if (i % 2 == 0) continue;
      n += a[i - 1];
    }
    return n;
  }

  static void inThroughHelper(int[] a) {
    for (int i = 0; i < a.length; i++) bump(a, i);
  }

  static void inThroughTwoHelpers(int[] a) {
    for (int i = 0; i < a.length; i++) bumpTwice(a, i);
  }

  /** Has no loop itself; a candidate only as part of its callers' loops. */
  static void bump(int[] a, int i) {
    a[i]++;
  }

  static void bumpTwice(int[] a, int i) {
    bump(a, i);
    bump(a, i);
  }

  static double inThroughAnotherClass(PrescanCell c, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += c.get(i);
    return s;
  }

  static double inThroughAStaticHelperElsewhere(int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += PrescanCell.twice(i);
    return s;
  }

  /** The call to another class could touch arrays, but the loop also calls println, which is always rejected. */
  static double outForeignCallBesideARejectedOne(PrescanCell c, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += c.get(i);
      System.out.println(s);
    }
    return s;
  }

  static int inRejectedSwitch(short[] a, int mode) {
    int s = 0;
    for (int i = 0; i < a.length; i++) {
      switch (mode) {
        case 0 -> s += a[i];
        case 1 -> s -= a[i];
        case 7 -> s ^= a[i];
        default -> s++;
      }
    }
    return s;
  }

  /** Objects read from an array, each asked for a number: the analyzer rejects the object array wherever it is. */
  static double inRejectedObjectsFromAnArray(PrescanCell[] cells) {
    double s = 0;
    for (int i = 0; i < cells.length; i++) s += cells[i].get(0);
    return s;
  }

  /** A helper of this class returning an array: the analyzer inlines only helpers that return a number or nothing. */
  static int inRejectedHelperReturningAnArray(int[][] m) {
    int s = 0;
    for (int i = 0; i < m.length; i++) s += rowOf(m, i)[0];
    return s;
  }

  static int[] rowOf(int[][] m, int i) {
    return m[i];
  }

  /** A field of objects read from an array: the analyzer rejects the object array wherever it is. */
  static int inRejectedFieldsOfObjectsFromAnArray(PrescanCell[] cells) {
    int s = 0;
    for (int i = 0; i < cells.length; i++) s += cells[i].data.length;
    return s;
  }

  /** A long counter: the analyzer counts only loops whose test compares ints. */
  static long inRejectedLongCounter(int[] a, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) s += a[(int) (i % a.length)];
    return s;
  }

  static void inRejectedCall(int[] a) {
    for (int i = 0; i < a.length; i++) System.out.println(a[i]);
  }

  static int inRejectedEarlyExit(int[] a) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] < 0) return i;
    }
    return -1;
  }

  static int outNoArrays(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i * i;
    return s;
  }

  static int outArraysOutsideTheLoop(int[] a, int n) {
    int s = a[0];
    for (int i = 0; i < n; i++) s += i;
    a[1] = s;
    return s;
  }

  static void outObjectStores(Object[] out) {
    for (int i = 0; i < out.length; i++) out[i] = "x";
  }

  static int outLengthOnly(int[] a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a.length;
    return s;
  }

  static void outHelperWithoutArrays(int n) {
    for (int i = 0; i < n; i++) tick();
  }

  static void outNoLoop(int[] a, int[] b) {
    b[0] = a[0] + a[1];
  }

  static void tick() {
    counter++;
  }
}
