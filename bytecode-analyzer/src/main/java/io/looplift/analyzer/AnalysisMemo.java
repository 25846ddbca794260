package io.looplift.analyzer;

import java.util.BitSet;

/**
 * What earlier analyses of a class file found worth analyzing: the methods (by their index among the class
 * file's methods) with a loop the analyzer accepted, or a call of an abstract method it wanted an
 * implementation of. A class file the pre-scan lets through but whose methods hold nothing of the kind (most
 * of those a large program loads) is then passed over without its analysis, on the thread loading it. The
 * loops left out are analyzed only when a report asks for them, as the pre-scan's rejects are.
 *
 * <p>Leaving a method out never changes what a program computes, only what LoopLift offloads: a record made
 * while another class it inlines from was different may leave out a loop that could now be offloaded.
 * Implementations are thread-safe.
 */
public interface AnalysisMemo {
  /** Remembers nothing: every class is analyzed. */
  AnalysisMemo NONE = new AnalysisMemo() {
    @Override
    public BitSet methodsWorthAnalyzing(long classHash) {
      return null;
    }

    @Override
    public void analyzed(long classHash, BitSet worthAnalyzing) {}
  };

  /**
   * The methods worth analyzing in the class file whose hash (its CRC-32C and CRC-32 side by side) is
   * {@code classHash}, or null when it is not known; the caller must not change the set.
   */
  BitSet methodsWorthAnalyzing(long classHash);

  /** Records what the analysis of the class file with hash {@code classHash} found worth analyzing. */
  void analyzed(long classHash, BitSet worthAnalyzing);

  /**
   * Tells the memo that method {@code method} (by index) of the class file with hash {@code classHash} was
   * rewritten with the loop sites {@code siteIds}, each of whose preambles is seen the first time it runs
   * ({@code LoopBridge.preambleRan}; a region's path opens with its first loop's): a memo may pass over at load,
   * for a while, methods whose loops no run reached. Told only of class files with such preambles (Java 7 and
   * later).
   */
  default void rewrote(long classHash, int method, int[] siteIds) {}
}
