package io.looplift.progen.fusion;

import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a template touches memory: the index of each distinct load and of each store, by array number, at
 * every depth of a nest.
 */
final class Accesses {
  private final Map<Integer, List<Node>> loads = new TreeMap<>();
  private final Map<Integer, List<Node>> stores = new TreeMap<>();

  private Accesses() {}

  static Accesses of(LoopTemplate t) {
    Accesses a = new Accesses();
    for (Node n : Nodes.postOrder(t.roots())) {
      if (n instanceof Load l) a.loads.computeIfAbsent(l.array(), k -> new ArrayList<>()).add(l.index());
      // The length of a row reads the array of arrays too.
      if (n instanceof Length l) a.loads.computeIfAbsent(l.array(), k -> new ArrayList<>()).add(l.row());
    }
    for (Store s : t.allStores()) a.stores.computeIfAbsent(s.array(), k -> new ArrayList<>()).add(s.index());
    return a;
  }

  Set<Integer> loaded() { return loads.keySet(); }

  Set<Integer> stored() { return stores.keySet(); }

  /** Every array loaded or stored. */
  Set<Integer> touched() {
    Set<Integer> all = new TreeSet<>(loads.keySet());
    all.addAll(stores.keySet());
    return all;
  }

  List<Node> loadIndices(int array) { return loads.getOrDefault(array, List.of()); }

  List<Node> storeIndices(int array) { return stores.getOrDefault(array, List.of()); }
}
