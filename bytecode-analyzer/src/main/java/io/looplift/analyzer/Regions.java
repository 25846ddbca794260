package io.looplift.analyzer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/** Orders the blocks of an acyclic region so that every block comes after its predecessors. */
final class Regions {
  private Regions() {}

  /**
   * Reverse post-order of the blocks reachable from {@code entry} inside {@code region}, ignoring edges
   * back to {@code entry}'s loop header {@code header} (null: no such edges allowed).
   *
   * @throws Rejection when the region has a cycle other than through {@code header}
   */
  static List<Cfg.Block> topologicalOrder(Cfg cfg, Cfg.Block entry, Predicate<Cfg.Block> region, Cfg.Block header) {
    List<Cfg.Block> post = new ArrayList<>();
    BitSet visiting = new BitSet();
    BitSet done = new BitSet();
    visit(entry, region, header, visiting, done, post);
    Collections.reverse(post);
    return post;
  }

  private static void visit(Cfg.Block b, Predicate<Cfg.Block> region, Cfg.Block header, BitSet visiting, BitSet done,
      List<Cfg.Block> post) {
    visiting.set(b.id);
    for (Cfg.Block s : b.succs) {
      if (s == header || !region.test(s) || done.get(s.id)) continue;
      if (visiting.get(s.id)) throw new Rejection("contains a nested loop");
      visit(s, region, header, visiting, done, post);
    }
    visiting.clear(b.id);
    done.set(b.id);
    post.add(b);
  }
}
