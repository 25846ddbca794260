package io.looplift.progen.fusion;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one flush compiles to: kernels to run in list order; the temporaries that still need storage
 * ({@code materialized}: the runtime allocates a zero-filled array for each, as {@code new T[n]} would);
 * and the loops found dead, which run nowhere. It depends only on the flush's shape (templates, array id
 * pattern, equal index ranges, live-out flags), so it may be cached and bound to new arrays and scalars.
 */
public record ProgramSequence(List<KernelSpec> kernels, int[] materialized, int[] eliminatedLoops) {
  public ProgramSequence {
    kernels = List.copyOf(kernels);
    materialized = materialized.clone();
    eliminatedLoops = eliminatedLoops.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ProgramSequence o && kernels.equals(o.kernels) && Arrays.equals(materialized, o.materialized)
        && Arrays.equals(eliminatedLoops, o.eliminatedLoops);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kernels, Arrays.hashCode(materialized), Arrays.hashCode(eliminatedLoops));
  }

  @Override
  public String toString() {
    return "ProgramSequence[kernels=" + kernels + ", materialized=" + Arrays.toString(materialized)
        + ", eliminatedLoops=" + Arrays.toString(eliminatedLoops) + "]";
  }
}
