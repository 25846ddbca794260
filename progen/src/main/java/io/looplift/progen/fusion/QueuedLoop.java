package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * One queued launch of a loop site: its template, the flush-wide id of the array object bound to each
 * template array slot (two slots with the same id are the same object), and its index range
 * {@code i = start + k * step} for {@code k < trips}. Scalars and accumulator values are deliberately not
 * part of it: what a flush compiles to depends only on its shape.
 */
public record QueuedLoop(int siteId, LoopTemplate template, int[] arrayIds, int start, int step, int trips) {
  public QueuedLoop {
    if (arrayIds.length != template.arrays().size()) {
      throw new IllegalArgumentException(arrayIds.length + " array ids for " + template.arrays().size() + " slots");
    }
    arrayIds = arrayIds.clone();
  }

  /** Flush ids of the arrays the template loads from. */
  public Set<Integer> loadedArrays() {
    return toFlushIds(Accesses.of(template).loaded());
  }

  /** Flush ids of the arrays the template stores to. */
  public Set<Integer> storedArrays() {
    return toFlushIds(Accesses.of(template).stored());
  }

  /** True when this launch runs exactly the iterations of {@code other}: same start, step and trips. */
  public boolean sameRange(QueuedLoop other) {
    return start == other.start && step == other.step && trips == other.trips;
  }

  private Set<Integer> toFlushIds(Set<Integer> slots) {
    Set<Integer> ids = new TreeSet<>();
    for (int slot : slots) ids.add(arrayIds[slot]);
    return Collections.unmodifiableSet(ids);
  }
}
