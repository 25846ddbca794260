package io.looplift.analyzer;

import io.looplift.ir.Affine;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Gathers;
import io.looplift.ir.Loop;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Stmts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * What one iteration of a loop (with the loops nested in it) reads and writes, collected while
 * {@link SymInterpreter} executes the body: the arrays and loop-invariant scalars it uses (each with the
 * recipe that recomputes it before the loop), its statements in program order (stores, and the inner loops
 * {@link InnerLoop} builds, each body a statement list of its own), and every array access for the
 * dependency checks. One instance per loop and pass; not thread-safe.
 */
final class LoopBody {
  /**
   * An array the loop reads or writes, identified by the recipe that loads its reference; with
   * {@code rows}, an array of arrays whose rows the loop accesses.
   */
  record ArraySlot(int slot, io.looplift.ir.Type elementType, List<AbstractInsnNode> recipe, boolean rows) {}

  /**
   * An element of one of the loop's arrays, the key of a frame's array memory: of row {@code row} (not
   * null) of an array of arrays, or of the array itself.
   */
  record Element(int slot, io.looplift.ir.Type elementType, Node index, Node row) {
    // Written out: see the ir module's package-info, "equals and hashCode".
    @Override
    public boolean equals(Object o) {
      return o instanceof Element e && slot == e.slot && elementType == e.elementType && Objects.equals(index, e.index)
          && Objects.equals(row, e.row);
    }

    @Override
    public int hashCode() {
      return Objects.hash(slot, elementType, index, row);
    }
  }

  /**
   * An object whose method the body inlines: the loop runs offloaded only while calling {@code method} (name
   * and descriptor) on the object {@code recipe} computes runs the declaration in class {@code holder}
   * (internal name), the one that was inlined.
   */
  record VirtualTarget(List<AbstractInsnNode> recipe, String holder, String method) {}

  /** A load or store, for the carried-dependency check of loops without inner loops. */
  record Access(int slot, AffineIndex index, boolean write) {}

  /**
   * A read of array {@code slot} at an index loaded from int array {@code indexSlot} (a gather, see
   * {@link Gathers}). Legal when the loop writes neither array (see {@link #checkGathers}).
   */
  record Gather(int slot, int indexSlot) {}

  final Map<String, ArraySlot> arrays = new LinkedHashMap<>();
  final Map<String, Param> params = new LinkedHashMap<>();
  final Map<Param, List<AbstractInsnNode>> paramRecipes = new HashMap<>();
  final List<Access> accesses = new ArrayList<>();
  /** The body's gathers, in program order. */
  final List<Gather> gathers = new ArrayList<>();
  /**
   * The classes with a static initializer whose static methods the body inlines (internal names): the loop
   * may run offloaded only once Java has initialized them.
   */
  final Set<String> initializedClasses = new LinkedHashSet<>();
  /** The objects whose methods the body inlines, with the declarations inlined (by recipe, holder and method). */
  final Map<String, VirtualTarget> receiverGuards = new LinkedHashMap<>();
  /** Set when some load follows a store in program order (the loop then tolerates no array aliasing). */
  boolean loadAfterStore;
  /** Set when the body has an access that is not {@code i + constant}: it can only be offloaded as a nest. */
  boolean general;
  /**
   * Set for a walk that only looks for induction variables (see {@link LoopAnalyzer}): an access at an index
   * that is not affine is then passed over instead of rejected.
   */
  boolean probing;
  /**
   * Set when a walk found an index, or an inner loop's bound, that is not affine: only such a failure may
   * go away once induction variables are known, so only then is the probing walk worth its cost.
   */
  boolean notAffine;
  /** The epoch (see {@link io.looplift.ir.Load#epoch()}) in which each statement's own nodes are computed. */
  final Map<Stmt, Integer> epochs = new IdentityHashMap<>();
  /** The epoch in which each inner loop's carried updates are computed, by loop id. */
  final Map<Integer, Integer> updateEpochs = new HashMap<>();
  /** The source name of the variable each inner loop counts with, by loop id (for the report). */
  final Map<Integer, String> loopVariables = new HashMap<>();
  /** The statement lists being filled: the outermost loop's body at the bottom, the innermost open loop's on top. */
  private final Deque<List<Stmt>> open = new ArrayDeque<>(List.of(new ArrayList<>()));
  private int stores;
  private int loopIds;
  private int epochCount;

  /** The statements of the outermost loop's body, once every inner loop is closed. */
  List<Stmt> statements() {
    return open.getFirst();
  }

  /** The number of stores executed so far at any depth. */
  int storeCount() {
    return stores;
  }

  /** A number for a new inner loop, unique in this body. */
  int newLoopId() {
    return ++loopIds;
  }

  /** A new epoch: a segment of some body starts. */
  int newEpoch() {
    return ++epochCount;
  }

  /** Starts collecting the statements of an inner loop's body. */
  void openLoop() {
    open.push(new ArrayList<>());
  }

  /** Stops collecting an inner loop's body and returns its statements. */
  List<Stmt> closeLoop() {
    return open.pop();
  }

  /** Appends inner loop {@code l}, whose bounds and initial values are computed in {@code epoch}. */
  void add(Loop l, int epoch) {
    open.peek().add(l);
    epochs.put(l, epoch);
  }

  /** Every root node of {@code stmts}, at every depth. */
  List<Node> nodes(List<Stmt> stmts) {
    return Stmts.roots(stmts);
  }

  /** {@code stmts} with every node rewritten by {@code replace}; the statements keep their epochs. */
  List<Stmt> rewrite(List<Stmt> stmts, UnaryOperator<Node> replace) {
    return Stmts.rewrite(stmts, replace, (old, now) -> {
      Integer e = epochs.remove(old);
      if (e != null) epochs.put(now, e);
    });
  }

  /** A parameter (loop-invariant scalar) for the value {@code recipe} computes; one per distinct recipe. */
  SymValue param(io.looplift.ir.Type type, List<AbstractInsnNode> recipe) {
    String key = type + ":" + SymValue.key(recipe);
    Param p = params.get(key);
    if (p == null) {
      p = new Param(params.size(), type.stackType());
      params.put(key, p);
      paramRecipes.put(p, List.copyOf(recipe));
    }
    return SymValue.primitive(p, recipe);
  }

  /**
   * The slot of the primitive array {@code array} (or of the array of arrays whose row it is) that
   * instruction {@code opcode} accesses, assigned on first use.
   *
   * @throws Rejection when the array's type is unknown, it may change inside the loop other than as a row of
   *     an invariant array of arrays, or it is not an array of primitives
   */
  ArraySlot slot(SymValue array, int opcode) {
    SymValue reference = array.rowOf() != null ? array.rowOf() : array;
    boolean rows = array.rowOf() != null;
    if (reference.refType() == null || reference.refType().getSort() != Type.ARRAY) {
      throw new Rejection("accesses an array whose type is not known");
    }
    if (!reference.isInvariant()) throw new Rejection("the array it accesses changes inside the loop");
    Type t = reference.refType();
    if (t.getDimensions() != (rows ? 2 : 1) || t.getElementType().getSort() == Type.OBJECT) {
      throw new Rejection("reads an object array (" + t.getClassName() + ")");
    }
    io.looplift.ir.Type elem = io.looplift.ir.Type.ofDescriptor(t.getElementType().getDescriptor().charAt(0));
    String key = (rows ? "rows of " : "") + reference.key();
    ArraySlot s = arrays.get(key);
    if (s == null) {
      s = new ArraySlot(arrays.size(), elem, reference.recipe(), rows);
      arrays.put(key, s);
    }
    if (opcode == Opcodes.BALOAD || opcode == Opcodes.BASTORE) {
      if (elem != io.looplift.ir.Type.BYTE && elem != io.looplift.ir.Type.BOOLEAN) throw new Rejection("inconsistent array type");
    }
    return s;
  }

  /** Records a load of {@code e} that no earlier store of the iteration provides. */
  void read(Element e) {
    access(e, false);
    if (stores > 0) loadAfterStore = true;
  }

  /** Appends a store of {@code value} to {@code e} on the paths where {@code predicate} holds, in {@code epoch}. */
  void write(Element e, Node value, Node predicate, int epoch) {
    access(e, true);
    Store s = new Store(e.slot(), e.elementType(), e.index(), value, predicate, e.row());
    open.peek().add(s);
    epochs.put(s, epoch);
    stores++;
  }

  private void access(Element e, boolean write) {
    Affine index = Affine.of(e.index());
    Affine row = e.row() == null ? null : Affine.of(e.row());
    if (index == null || (e.row() != null && row == null)) {
      Gathers gather = write || e.row() != null ? null : Gathers.of(e.index());
      if (gather != null) {
        gathers.add(new Gather(e.slot(), gather.indices().array()));
        general = true; // guarded and checked as a nest: the flat rules know only i + constant
        return;
      }
      if (probing) return;
      notAffine = true;
      throw new Rejection((write ? "writes" : "reads") + " an array at an index that is not affine in the loop"
          + " variables (indirect or non-linear access)");
    }
    if (write && index.isInvariant() && (row == null || row.isInvariant())) {
      throw new Rejection("writes the same array element in every iteration");
    }
    AffineIndex ai = e.row() == null ? AffineIndex.of(e.index()) : null;
    if (ai == null) {
      // Not i + constant: only the nest analysis, which works with general affine forms, can take it.
      general = true;
      return;
    }
    accesses.add(new Access(e.slot(), ai, write));
  }

  /**
   * Rejects the loop when it writes an array it gathers from, or the array of a gather's indices: the guard
   * checks the indices before the launch, and the elements they name must be those of no iteration's writes.
   */
  void checkGathers() {
    if (gathers.isEmpty()) return;
    boolean[] written = NestRules.writtenArrays(statements(), arrays.size());
    for (Gather g : gathers) {
      if (written[g.indexSlot()]) {
        throw new Rejection("reads an array at indices loaded from an array the loop writes");
      }
      if (written[g.slot()]) {
        throw new Rejection("reads an array the loop writes at indices loaded from another array");
      }
    }
  }
}
