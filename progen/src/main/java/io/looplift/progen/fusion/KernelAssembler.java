package io.looplift.progen.fusion;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns scheduled groups into the program: drops each store to a temporary that nothing reads afterwards
 * (its readers in the same kernel were forwarded), numbers every kernel's remaining arrays compactly, and
 * lists the temporaries that still need storage.
 */
final class KernelAssembler {
  private KernelAssembler() {}

  /** The program running {@code groups} in order; {@code eliminatedLoops} are the dead loops. */
  static ProgramSequence assemble(Flush flush, List<KernelGroup> groups, int[] eliminatedLoops) {
    KernelSpec[] kernels = new KernelSpec[groups.size()];
    Set<Integer> loadedLater = new HashSet<>();
    for (int k = groups.size() - 1; k >= 0; k--) {
      LoopTemplate body = withoutDeadStores(flush, groups.get(k).body(), loadedLater);
      loadedLater.addAll(Accesses.of(body).loaded());
      kernels[k] = kernel(flush, groups.get(k), body);
    }
    Set<Integer> materialized = new TreeSet<>();
    for (KernelSpec kernel : kernels) {
      for (int id : kernel.arrayIds()) {
        if (flush.isTemporary(id)) materialized.add(id);
      }
    }
    return new ProgramSequence(List.of(kernels), materialized.stream().mapToInt(Integer::intValue).toArray(), eliminatedLoops);
  }

  /**
   * {@code body} without its stores to temporaries that nothing reads afterwards: no later kernel loads the
   * array, and the kernel's own loads of it are at the store's index, so they read each element in the
   * iteration that stores it, before the store (a loop reading back its own earlier stores keeps them).
   * Repeated until nothing changes, as a dropped store may have held the only such load.
   */
  private static LoopTemplate withoutDeadStores(Flush flush, LoopTemplate body, Set<Integer> loadedLater) {
    if (!body.isFlat()) return body; // a nest's stores are spread over its loops: all of them are kept
    Accesses accesses = Accesses.of(body);
    List<Store> kept = new ArrayList<>();
    for (Store s : body.stores()) {
      boolean dead = flush.isTemporary(s.array()) && !loadedLater.contains(s.array())
          && FusionRules.sameDistinctIndex(s.index(), accesses.loadIndices(s.array()));
      if (!dead) kept.add(s);
    }
    if (kept.size() == body.stores().size()) return body;
    return withoutDeadStores(flush, new LoopTemplate(body.arrays(), body.params(), body.accumulators(), kept, body.reductions()), loadedLater);
  }

  /** The kernel of {@code group} with body {@code body}: arrays in order of first binding among the members. */
  private static KernelSpec kernel(Flush flush, KernelGroup group, LoopTemplate body) {
    Set<Integer> touched = Accesses.of(body).touched();
    Map<Integer, Integer> slots = new HashMap<>();
    List<Type> types = new ArrayList<>();
    List<SlotRef> params = new ArrayList<>();
    List<SlotRef> accumulators = new ArrayList<>();
    for (int loop : group.loops()) {
      QueuedLoop q = flush.loops().get(loop);
      for (int id : q.arrayIds()) {
        if (touched.contains(id) && !slots.containsKey(id)) {
          slots.put(id, slots.size());
          types.add(flush.arrays().get(id).elementType());
        }
      }
      for (int p = 0; p < q.template().params().size(); p++) params.add(new SlotRef(loop, p));
      for (int j = 0; j < q.template().accumulators().size(); j++) accumulators.add(new SlotRef(loop, j));
    }
    int[] arrayIds = new int[slots.size()];
    slots.forEach((id, slot) -> arrayIds[slot] = id);
    LoopTemplate template = TemplateRewrite.renumberArrays(body, types, slots::get);
    int[] loops = group.loops().stream().mapToInt(Integer::intValue).toArray();
    return new KernelSpec(template, arrayIds, params, accumulators, group.rangeLoop(), loops);
  }
}
