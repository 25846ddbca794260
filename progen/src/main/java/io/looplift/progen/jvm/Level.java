package io.looplift.progen.jvm;

import io.looplift.ir.Acc;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Reduction;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One loop of a nest kernel as it is generated: the template's outermost loop, the band that a kernel runs a
 * range of (see {@link NestDimension}), or an inner {@link Loop}. Its body is a sequence of {@link Part}s:
 * segments of stores and the levels inside it, always ending with a segment (possibly without stores) that
 * also computes the level's final values. Built once per generation; not thread-safe.
 */
final class Level implements Part {
  private final Loop loop;
  private final Level parent;
  private final List<Part> parts = new ArrayList<>();
  private final List<Node> finals;
  private boolean[] writes;
  /** The variables of this level and of the levels inside it. */
  private final Set<Node> vars = new HashSet<>();
  /** The ids of this level's loop and of the loops inside it. */
  private final Set<Integer> loops = new HashSet<>();
  private boolean holdsOuter;
  private final Map<Node, Boolean> varies = new HashMap<>();

  private Level(Loop loop, Level parent, List<Node> finals) {
    this.loop = loop;
    this.parent = parent;
    this.finals = List.copyOf(finals);
  }

  /**
   * The kernel's outermost level for template {@code t}: the outermost loop, whose final values are the
   * reductions' updates, or their elements when {@code split}. When {@code dimension} is a band, its body is
   * the band alone, which a kernel runs over a range of its iterations: Java's order restricted to that
   * range, as fast per element as the original loop (an inner loop that C2 vectorizes stays inner).
   */
  static Level root(LoopTemplate t, NestDimension dimension, boolean split) {
    List<Node> reductions = new ArrayList<>();
    for (Reduction r : t.reductions()) reductions.add(split ? r.element() : r.update());
    Level root;
    if (dimension.isBand()) {
      Loop band = dimension.band();
      root = new Level(null, null, List.of());
      Level range = new Level(band, root, List.of());
      range.fill(band.body());
      root.parts.add(range);
      root.parts.add(new Part.Segment(List.of()));
    } else {
      root = new Level(null, null, reductions);
      root.fill(t.body());
    }
    root.summarize(t.arrays().size());
    return root;
  }

  private void fill(List<Stmt> body) {
    List<Store> run = new ArrayList<>();
    for (Stmt s : body) {
      if (s instanceof Store st) {
        run.add(st);
      } else if (s instanceof Loop l) {
        if (!run.isEmpty()) parts.add(new Part.Segment(List.copyOf(run)));
        run.clear();
        List<Node> updates = new ArrayList<>();
        for (Carried c : l.carried()) updates.add(c.update());
        Level inner = new Level(l, this, updates);
        inner.fill(l.body());
        parts.add(inner);
      }
    }
    parts.add(new Part.Segment(List.copyOf(run)));
  }

  private void summarize(int arrays) {
    writes = new boolean[arrays];
    vars.add(var());
    if (loop != null) loops.add(loop.id());
    holdsOuter = loop == null;
    for (Part p : parts) {
      if (p instanceof Part.Segment s) {
        for (Store st : s.stores()) writes[st.array()] = true;
      } else if (p instanceof Level inner) {
        inner.summarize(arrays);
        for (int a = 0; a < arrays; a++) writes[a] |= inner.writes[a];
        vars.addAll(inner.vars);
        loops.addAll(inner.loops);
        holdsOuter |= inner.holdsOuter;
      }
    }
  }

  /** The IR loop, or null for the template's outermost loop. */
  Loop loop() {
    return loop;
  }

  /** The enclosing level, or null for the kernel's outermost one. */
  Level parent() {
    return parent;
  }

  List<Part> parts() {
    return parts;
  }

  /** The values computed with the last segment and assigned after it: carried updates, or reductions. */
  List<Node> finals() {
    return finals;
  }

  /** The level's variable: {@link Index} for the template's outermost loop, else its {@link LoopVar}. */
  Node var() {
    return loop == null ? Index.I : new LoopVar(loop.id());
  }

  /** True for the template's outermost loop. */
  boolean isOuter() {
    return loop == null;
  }

  /** The levels directly inside this one. */
  List<Level> children() {
    List<Level> children = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Level l) children.add(l);
    }
    return children;
  }

  /** True when {@code loopId} is the id of a loop strictly inside this level. */
  boolean contains(int loopId) {
    return loops.contains(loopId) && (loop == null || loop.id() != loopId);
  }

  /**
   * True when {@code n} may take different values while this level runs: it reads the variable or a carried
   * value of this level or of a level inside it, the result of a loop inside it, an accumulator (which the
   * outermost loop updates), or an element of an array stored to inside it. A value that does not vary may
   * be computed once when the level is entered.
   */
  boolean varies(Node n) {
    Boolean known = varies.get(n);
    if (known != null) return known;
    boolean v;
    if (n instanceof Index || n instanceof LoopVar) {
      v = vars.contains(n);
    } else if (n instanceof CarriedVar c) {
      v = loops.contains(c.loop());
    } else if (n instanceof LoopOut o) {
      v = contains(o.loop());
    } else if (n instanceof Acc) {
      v = holdsOuter;
    } else {
      v = n instanceof Load l && writes[l.array()];
      for (Node c : Nodes.children(n)) {
        if (v) break;
        v = varies(c);
      }
    }
    varies.put(n, v);
    return v;
  }
}
