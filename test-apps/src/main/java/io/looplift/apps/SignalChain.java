package io.looplift.apps;

import java.util.Random;

/**
 * An audio chain over float samples: gain (a synchronized instance method), DC offset removal, a Hann
 * window, rectification, decimation, a fade computed back to front, conversion to 16-bit and 8-bit PCM and
 * back, energy and peak. Deterministic: fixed seed, results printed as exact bits.
 */
public final class SignalChain {
  private static final int N = 1 << 20;

  /** Gain changes applied so far; the lock is what makes {@link #applyGain} synchronized for a reason. */
  private int gainChanges;

  synchronized void applyGain(float[] x, float gain, float[] y) {
    gainChanges++;
    for (int i = 0; i < x.length; i++) y[i] = x[i] * gain;
  }

  static double mean(float[] x) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) sum += x[i];
    return sum / x.length;
  }

  static void removeDc(float[] x, double dc, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = (float) (x[i] - dc);
  }

  static void hann(float[] w) {
    int n = w.length;
    for (int i = 0; i < n; i++) w[i] = (float) (0.5 - 0.5 * Math.cos(2 * Math.PI * i / (n - 1)));
  }

  static void multiply(float[] x, float[] w, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = x[i] * w[i];
  }

  static void mix(float[] x, float[] noise, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = x[i] + noise[i];
  }

  static void rectify(float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) y[i] = Math.abs(x[i]);
  }

  /** Every other sample doubled in place of the original: a loop with step 2. */
  static void boostEven(float[] x, float[] y) {
    for (int i = 0; i < x.length; i += 2) y[i] = x[i] * 2f;
  }

  /** Averages pairs of samples into a half-length signal: two induction variables. */
  static void decimate(float[] x, float[] half) {
    for (int i = 0, j = 0; i < x.length - 1; i += 2, j++) half[j] = 0.5f * (x[i] + x[i + 1]);
  }

  /** A linear fade-out computed from the last sample down to the first. */
  static void fadeOut(float[] x, float[] y) {
    int n = x.length;
    float step = 1f / n;
    for (int i = n - 1; i >= 0; i--) y[i] = x[i] * ((n - i) * step);
  }

  static void toPcm16(float[] x, short[] pcm) {
    for (int i = 0; i < x.length; i++) {
      float c = Math.max(-1f, Math.min(1f, x[i]));
      pcm[i] = (short) (c * 32767f);
    }
  }

  static void toPcm8(float[] x, byte[] pcm) {
    for (int i = 0; i < x.length; i++) {
      float c = Math.max(-1f, Math.min(1f, x[i]));
      pcm[i] = (byte) ((int) (c * 127f) + 128);
    }
  }

  static void fromPcm16(short[] pcm, float[] y) {
    for (int i = 0; i < pcm.length; i++) y[i] = pcm[i] / 32768f;
  }

  static double energy(float[] x) {
    double e = 0;
    for (int i = 0; i < x.length; i++) e += (double) x[i] * x[i];
    return e;
  }

  static float peak(float[] x) {
    float p = 0f;
    for (int i = 0; i < x.length; i++) p = Math.max(p, Math.abs(x[i]));
    return p;
  }

  static void tone(float[] x, double freq, double offset) {
    for (int i = 0; i < x.length; i++) x[i] = (float) (offset + 0.6 * Math.sin(freq * i));
  }

  public static void main(String[] args) {
    Random rnd = new Random(1234);
    float[] x = new float[N];
    tone(x, 0.001, 0.1);
    float[] noise = new float[N];
    for (int i = 0; i < N; i++) noise[i] = (float) (0.05 * rnd.nextGaussian());
    multiply(noise, noise, noise);
    mix(x, noise, x);
    SignalChain chain = new SignalChain();
    float[] y = new float[N];
    float[] w = new float[N];
    hann(w);
    float[] half = new float[N / 2];
    short[] pcm16 = new short[N];
    byte[] pcm8 = new byte[N];
    float[] back = new float[N];
    float[] gains = {0.5f, 1.5f};
    for (float gain : gains) {
      multiply(x, w, y);
      chain.applyGain(y, gain, y);
      double dc = mean(y);
      removeDc(y, dc, y);
      System.out.println("gain " + gain + " dc " + Digest.exact(dc) + " energy " + Digest.exact(energy(y))
          + " peak " + Digest.exact(peak(y)));
      rectify(y, back);
      boostEven(back, back);
      decimate(back, half);
      fadeOut(y, y);
      toPcm16(y, pcm16);
      toPcm8(y, pcm8);
      fromPcm16(pcm16, back);
      System.out.println("  window " + Digest.of(w) + " half " + Digest.of(half) + " faded " + Digest.of(y));
      System.out.println("  pcm16 " + Digest.of(pcm16) + " pcm8 " + Digest.of(pcm8) + " back " + Digest.of(back)
          + " " + pcm16[N / 3] + " " + pcm8[N / 3]);
    }
    System.out.println("gain changes " + chain.gainChanges);
  }
}
