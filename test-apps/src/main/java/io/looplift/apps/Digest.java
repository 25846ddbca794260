package io.looplift.apps;

/**
 * Formats results of the test programs as exact bit patterns, so that a difference of one ulp in any
 * element changes what is printed. Shared by the programs; it knows nothing of LoopLift.
 */
final class Digest {
  private Digest() {}

  /** A hash of the raw bits of every element, in order. */
  static String of(double[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + Double.doubleToRawLongBits(a[i]);
    return Long.toHexString(h);
  }

  /** A hash of the raw bits of every element, in order. */
  static String of(float[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + Float.floatToRawIntBits(a[i]);
    return Long.toHexString(h);
  }

  /** A hash of every element, in order. */
  static String of(int[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + a[i];
    return Long.toHexString(h);
  }

  /** A hash of every element, in order. */
  static String of(short[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + a[i];
    return Long.toHexString(h);
  }

  /** A hash of every element, in order. */
  static String of(byte[] a) {
    long h = 17;
    for (int i = 0; i < a.length; i++) h = h * 1_000_003L + a[i];
    return Long.toHexString(h);
  }

  /** The shortest decimal that reads back as {@code x}, and its raw bits. */
  static String exact(double x) {
    return x + " [" + Long.toHexString(Double.doubleToRawLongBits(x)) + "]";
  }

  /** The shortest decimal that reads back as {@code x}, and its raw bits. */
  static String exact(float x) {
    return x + " [" + Integer.toHexString(Float.floatToRawIntBits(x)) + "]";
  }
}
