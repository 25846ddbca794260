package io.looplift.analyzer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;

/**
 * Orders the blocks of a region so that every block comes after its predecessors, each loop nested in the
 * region standing for the whole loop: its header is followed by the loop's exits, its other blocks are
 * left out.
 */
final class Regions {
  private Regions() {}

  /**
   * Reverse post-order of the blocks reachable from {@code entry} inside {@code region}, ignoring edges
   * back to {@code entry}'s loop header {@code header} (null: no such edges allowed), with each of
   * {@code inner} (loops inside the region) contracted to its header.
   *
   * @throws Rejection when the region has a cycle other than through {@code header} and {@code inner}
   */
  static List<Cfg.Block> topologicalOrder(Cfg cfg, Cfg.Block entry, Predicate<Cfg.Block> region, Cfg.Block header,
      List<Cfg.Loop> inner) {
    List<Cfg.Block> post = new ArrayList<>();
    BitSet visiting = new BitSet();
    BitSet done = new BitSet();
    visit(cfg, entry, region, header, inner, visiting, done, post);
    Collections.reverse(post);
    return post;
  }

  private static void visit(Cfg cfg, Cfg.Block b, Predicate<Cfg.Block> region, Cfg.Block header,
      List<Cfg.Loop> inner, BitSet visiting, BitSet done, List<Cfg.Block> post) {
    visiting.set(b.id);
    for (Cfg.Block s : successors(cfg, b, inner)) {
      if (s == header || !region.test(s) || done.get(s.id)) continue;
      if (visiting.get(s.id)) throw new Rejection("has a loop that is not a counted loop with a single entry");
      visit(cfg, s, region, header, inner, visiting, done, post);
    }
    visiting.clear(b.id);
    done.set(b.id);
    post.add(b);
  }

  /** The successors of {@code b}: for the header of one of {@code inner}, the blocks that loop exits to. */
  private static List<Cfg.Block> successors(Cfg cfg, Cfg.Block b, List<Cfg.Loop> inner) {
    for (Cfg.Loop l : inner) {
      if (l.header == b) return exits(cfg, l);
    }
    return b.succs;
  }

  /** The blocks outside {@code loop} that a block of it jumps or falls to. */
  static List<Cfg.Block> exits(Cfg cfg, Cfg.Loop loop) {
    List<Cfg.Block> exits = new ArrayList<>();
    for (Cfg.Block b : cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (Cfg.Block s : b.succs) {
        if (!loop.contains(s) && !exits.contains(s)) exits.add(s);
      }
    }
    return exits;
  }
}
