package io.looplift.executors.select;

import java.util.List;

/**
 * What the store keeps for one kernel, and what makes it valid: the kernel (its shape and its classes' file
 * hashes, in {@code key}), the LoopLift version and the core count; each candidate's device description
 * makes that candidate's part valid.
 *
 * @param cores the processors the JVM had (a thread pool measured on 4 cores says little about 64)
 * @param overlap the most launches of the kernel the program's threads ran at once ({@link LaunchOverlap})
 */
record StoredKernel(KernelKey key, String version, int cores, int overlap, List<Candidate> candidates) {
  StoredKernel {
    candidates = List.copyOf(candidates);
  }

  /**
   * One candidate's part.
   *
   * @param dropped why it failed on this kernel, or null
   * @param points its measured points, ordered by size class
   * @param samples its runs towards points not complete yet (a program whose launches of the kernel ended
   *     first), ordered by size class: the next run goes on from them
   * @param beside most of its measuring runs ran beside other launches of the kernel (see
   *     {@link Measurements#besideOthers})
   */
  record Candidate(String name, String device, String dropped, List<Point> points, List<Point> samples,
      boolean beside) {
    Candidate {
      points = List.copyOf(points);
      samples = List.copyOf(samples);
    }
  }
}
