package io.looplift.apps;

import java.util.Random;

/**
 * An image pipeline over float pixels in [0, 1]: brightness/contrast/gamma, a 3-tap horizontal blur (an
 * inner class), thresholding, packing three channels into ARGB ints and back to luminance. Deterministic:
 * fixed seed, results printed as exact bits.
 */
public final class ImageFilter {
  private final int width;
  private final int height;

  ImageFilter(int width, int height) {
    this.width = width;
    this.height = height;
  }

  /** A horizontal blur with three taps; an inner class so that its loop lives in {@code ImageFilter$Blur}. */
  final class Blur {
    private final float left;
    private final float center;
    private final float right;

    Blur(float left, float center, float right) {
      this.left = left;
      this.center = center;
      this.right = right;
    }

    /** Blurs {@code in} into {@code out}; the first and last pixels are copied unchanged. */
    void apply(float[] in, float[] out) {
      int n = width * height;
      float a = left;
      float b = center;
      float c = right;
      for (int i = 1; i < n - 1; i++) out[i] = a * in[i - 1] + b * in[i] + c * in[i + 1];
      out[0] = in[0];
      out[n - 1] = in[n - 1];
    }
  }

  static void adjust(float[] px, float brightness, float contrast, double gamma, float[] out) {
    for (int i = 0; i < px.length; i++) {
      float v = (px[i] - 0.5f) * contrast + 0.5f + brightness;
      out[i] = (float) Math.pow(Math.max(0f, Math.min(1f, v)), gamma);
    }
  }

  static void threshold(float[] px, float level, float[] mask) {
    for (int i = 0; i < px.length; i++) mask[i] = px[i] > level ? 1f : 0f;
  }

  static void pack(float[] r, float[] g, float[] b, int[] argb) {
    for (int i = 0; i < argb.length; i++) {
      int ri = (int) (r[i] * 255f) & 0xFF;
      int gi = (int) (g[i] * 255f) & 0xFF;
      int bi = (int) (b[i] * 255f) & 0xFF;
      argb[i] = 0xFF000000 | ri << 16 | gi << 8 | bi;
    }
  }

  static void luminance(int[] argb, float[] lum) {
    for (int i = 0; i < argb.length; i++) {
      int p = argb[i];
      lum[i] = ((p >>> 16) & 0xFF) * 0.299f + ((p >>> 8) & 0xFF) * 0.587f + (p & 0xFF) * 0.114f;
    }
  }

  static float brightnessSum(float[] px) {
    float sum = 0f;
    for (int i = 0; i < px.length; i++) sum += px[i];
    return sum;
  }

  static int litPixels(int[] argb) {
    int lit = 0;
    for (int i = 0; i < argb.length; i++) lit += (argb[i] >>> 23) & 1;
    return lit;
  }

  public static void main(String[] args) {
    ImageFilter image = new ImageFilter(1024, 512);
    int n = image.width * image.height;
    Random rnd = new Random(7);
    float[] red = new float[n];
    float[] green = new float[n];
    float[] blue = new float[n];
    for (int i = 0; i < n; i++) {
      red[i] = rnd.nextFloat();
      green[i] = rnd.nextFloat();
      blue[i] = rnd.nextFloat();
    }
    float[] adjusted = new float[n];
    float[] blurred = new float[n];
    float[] mask = new float[n];
    int[] argb = new int[n];
    float[] lum = new float[n];
    Blur blur = image.new Blur(0.25f, 0.5f, 0.25f);
    float[][] channels = {red, green, blue};
    for (int c = 0; c < channels.length; c++) {
      adjust(channels[c], 0.05f * c, 1.2f, 1 / 2.2, adjusted);
      blur.apply(adjusted, blurred);
      threshold(blurred, 0.6f, mask);
      System.out.println("channel " + c + " adjusted " + Digest.of(adjusted) + " blurred " + Digest.of(blurred)
          + " mask " + Digest.of(mask));
      System.out.println("  brightness " + Digest.exact(brightnessSum(blurred)) + " lit " + Digest.exact(brightnessSum(mask)));
      System.arraycopy(blurred, 0, channels[c], 0, n);
    }
    pack(red, green, blue, argb);
    luminance(argb, lum);
    System.out.println("argb " + Digest.of(argb) + " first " + Integer.toHexString(argb[0]) + " last "
        + Integer.toHexString(argb[n - 1]));
    System.out.println("luminance " + Digest.of(lum) + " sum " + Digest.exact(brightnessSum(lum)));
    System.out.println("red high bit set " + litPixels(argb));
  }
}
