package io.looplift.runtime;

import io.looplift.ir.Affine;
import io.looplift.ir.Binary;
import io.looplift.ir.Carried;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Gathers;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a template into its {@link GuardPlan}, once per site. It walks the body in program order, numbering
 * the loop variables (0 for the outermost loop's, then the inner loops in pre-order) and noting for every
 * array access the innermost loop around it, compiles every index, row index and inner loop bound to an
 * {@link AffineCode} over one {@link InvariantCode}, and groups the stores by written argument. A template
 * whose accesses or bounds are not affine, or break what the analyzer promises about nests, gets a plan
 * that declines every launch with the reason. Not thread-safe; one instance per template.
 */
final class GuardCompiler {
  /** Why a template cannot be guarded: ends the compilation. */
  private static final class Unguardable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unguardable(String reason) {
      super(reason, null, false, false);
    }
  }

  /** An access as the plan deduplicates it: the same element expression in the same loop is checked once. */
  private record AccessKey(int array, Node index, Node row, int context) {}

  /** The element a store or load touches, in affine form: the loads of a written argument must match a store. */
  private record Element(int array, Affine index, Affine row) {}

  private final LoopTemplate t;
  private final ArgumentTypes types;
  private final InvariantCode.Builder code = new InvariantCode.Builder();
  private final Map<Integer, Integer> varOfLoop = new HashMap<>();
  private final List<Loop> loopOfVar = new ArrayList<>();
  /** By variable: that variable and those of the loops around it. */
  private final boolean[][] scope;
  private final List<InnerLoop> inner = new ArrayList<>();
  private final Map<AccessKey, ArrayAccess> accesses = new LinkedHashMap<>();
  private final Map<Integer, List<ArrayAccess>> stores = new LinkedHashMap<>();
  private final List<Element> written = new ArrayList<>();
  private final List<Element> read = new ArrayList<>();
  /** Arrays of arrays read at other columns of rows their stores write: whole rows must belong to one work item. */
  private final Set<Integer> wholeRows = new HashSet<>();

  private GuardCompiler(LoopTemplate t) {
    this.t = t;
    this.types = new ArgumentTypes(t);
    this.scope = new boolean[t.loops().size() + 1][];
    scope[0] = new boolean[scope.length];
    scope[0][0] = true;
  }

  /** The plan of {@code t}'s guards. */
  static GuardPlan compile(LoopTemplate t) {
    GuardCompiler c = new GuardCompiler(t);
    try {
      return c.plan();
    } catch (Unguardable e) {
      return new GuardPlan(t, c.types, e.getMessage());
    }
  }

  private GuardPlan plan() {
    walk(t.body(), 0);
    for (Reduction r : t.reductions()) {
      reads(0, r.update());
      if (r.element() != null) reads(0, r.element());
    }
    checkReadsOfWrittenArrays();
    List<ArrayAccess> perPass = new ArrayList<>();
    List<ArrayAccess> wide = new ArrayList<>();
    boolean enumerates = inner.stream().anyMatch(InnerLoop::dependent);
    for (ArrayAccess a : accesses.values()) {
      (a.wide() ? wide : perPass).add(a);
      // Rows chosen by the outermost variable whose columns depend on it too (m[i][i]) are exact per value.
      enumerates |= a.row != null && !a.wide() && a.row.uses(0) && a.index != null && a.index.uses(0);
    }
    BoundsCheck bounds = new BoundsCheck(inner.toArray(new InnerLoop[0]), perPass.toArray(new ArrayAccess[0]),
        wide.toArray(new ArrayAccess[0]), enumerates, !t.rowArrays().isEmpty());
    boolean[] writtenArrays = t.writtenArrays();
    boolean[] rows = new boolean[writtenArrays.length];
    for (int a : t.rowArrays()) rows[a] = true;
    AliasRule aliasing = t.isFlat() ? new FlatAliasing(writtenArrays, accesses.values().toArray(new ArrayAccess[0]))
        : new NestAliasing(writtenArrays, rows);
    List<WrittenArray> writes = new ArrayList<>();
    for (Map.Entry<Integer, List<ArrayAccess>> e : stores.entrySet()) {
      if (!disjointByConstants(e.getKey(), e.getValue())) writes.add(writtenArray(e.getKey(), e.getValue()));
    }
    return new GuardPlan(t, types, code.build(), bounds, aliasing, writes.toArray(new WrittenArray[0]), scope.length);
  }

  private void walk(List<Stmt> stmts, int context) {
    for (Stmt st : stmts) {
      if (st instanceof Store s) {
        reads(context, s.index(), s.value(), s.predicate());
        if (s.row() != null) reads(context, s.row());
        ArrayAccess a = access(s.array(), s.index(), s.row(), context, true);
        stores.computeIfAbsent(s.array(), k -> new ArrayList<>()).add(a);
        written.add(element(s.array(), s.index(), s.row()));
      } else if (st instanceof Loop l) {
        reads(context, l.start(), l.limit(), l.predicate());
        for (Carried c : l.carried()) reads(context, c.init());
        int v = enter(l, context);
        inner.add(innerLoop(l, v, context));
        for (Carried c : l.carried()) reads(v, c.update());
        walk(l.body(), v);
      }
    }
  }

  /** Numbers loop {@code l}'s variable; its scope is that of the loop around it plus itself. */
  private int enter(Loop l, int context) {
    int v = loopOfVar.size() + 1;
    if (varOfLoop.putIfAbsent(l.id(), v) != null) throw new Unguardable("two inner loops are numbered " + l.id());
    loopOfVar.add(l);
    scope[v] = scope[context].clone();
    scope[v][v] = true;
    return v;
  }

  private InnerLoop innerLoop(Loop l, int v, int context) {
    BoundCode start = bound(l.start(), context, "the start of inner loop " + l.id());
    if (l.limit() instanceof Length len && types.isRows(len.array())) {
      AffineCode row = affine(len.row(), context, "the row whose length bounds inner loop " + l.id());
      return new InnerLoop(v, context, l.id(), start, null, len.array(), row, l.shape());
    }
    BoundCode limit = bound(l.limit(), context, "the limit of inner loop " + l.id());
    return new InnerLoop(v, context, l.id(), start, limit, -1, null, l.shape());
  }

  /** An inner loop's bound: affine, or a monotone function of affine pieces ({@link BoundCode}). */
  private BoundCode bound(Node n, int context, String what) {
    boolean isInt = n.type() == Type.INT;
    if (isInt && Affine.of(n) != null) return BoundCode.affine(affine(n, context, what));
    if (n instanceof Const c && n.type() == Type.LONG) return BoundCode.constant(c.bits());
    if (n instanceof Convert cv && (isInt || n.type() == Type.LONG)
        && (cv.x().type() == Type.INT || cv.x().type() == Type.LONG)) {
      return BoundCode.conversion(bound(cv.x(), context, what), isInt);
    }
    if (n instanceof Unary u && u.op() == UnaryOp.NEG) return BoundCode.negation(bound(u.x(), context, what), isInt);
    if (n instanceof Select s && isInt && s.cond() instanceof Compare c && c.x().type() == Type.INT) {
      return BoundCode.choice(affine(c.x(), context, what), c.cond(), affine(c.y(), context, what),
          bound(s.ifTrue(), context, what), bound(s.ifFalse(), context, what));
    }
    if (n instanceof Binary b && (isInt || n.type() == Type.LONG)) {
      switch (b.op()) {
        case MIN:
          return BoundCode.min(bound(b.x(), context, what), bound(b.y(), context, what), isInt);
        case MAX:
          return BoundCode.max(bound(b.x(), context, what), bound(b.y(), context, what), isInt);
        case ADD:
          return BoundCode.sum(bound(b.x(), context, what), bound(b.y(), context, what), isInt);
        case SUB:
          return BoundCode.difference(bound(b.x(), context, what), bound(b.y(), context, what), isInt);
        case MUL:
          if (b.y() instanceof Const k) return BoundCode.product(bound(b.x(), context, what), k.bits(), isInt);
          if (b.x() instanceof Const k) return BoundCode.product(bound(b.y(), context, what), k.bits(), isInt);
          break;
        case DIV:
          if (b.y() instanceof Const k && k.bits() > 0) return BoundCode.quotient(bound(b.x(), context, what), k.bits(), isInt);
          break;
        default:
          break;
      }
    }
    throw new Unguardable(what + " is not affine piece by piece");
  }

  /** Notes every load and row length that computing {@code roots} performs in loop {@code context}. */
  private void reads(int context, Node... roots) {
    for (Node n : Nodes.postOrder(List.of(roots))) {
      if (n instanceof Load l) {
        access(l.array(), l.index(), l.row(), context, false);
        read.add(element(l.array(), l.index(), l.row()));
      } else if (n instanceof Length len) {
        access(len.array(), null, len.row(), context, false);
      }
    }
  }

  /** The access of {@code array[row][index]} ({@code index} null: the row's length), deduplicated. */
  private ArrayAccess access(int array, Node index, Node row, int context, boolean store) {
    if ((row != null) != types.isRows(array)) {
      throw new Unguardable("array " + array + (row == null ? " is an array of arrays indexed as an array"
          : " is indexed by rows but is not an array of arrays"));
    }
    AccessKey key = new AccessKey(array, index, row, context);
    ArrayAccess known = accesses.get(key);
    if (known != null && (known.store || !store)) return known;
    Gathers gather = store || row != null || index == null || Affine.of(index) != null ? null : gather(index);
    ArrayAccess a = known != null ? new ArrayAccess(array, context, known.index, known.row, true, known.gather)
        : gather != null ? new ArrayAccess(array, context, affine(gather.indices().index(), context,
            "the index into array " + gather.indices().array()), null, false, gatherCode(gather, context))
        : new ArrayAccess(array, context, index == null ? null : affine(index, context, "the index into array " + array),
            row == null ? null : affine(row, context, "the row index into array " + array), store, null);
    accesses.put(key, a);
    return a;
  }

  /** The decomposition of {@code index} when it is a gather's ({@link Gathers}); null for another index. */
  private Gathers gather(Node index) {
    Gathers g = Gathers.of(index);
    if (g != null && t.writtenArrays()[g.indices().array()]) {
      throw new Unguardable("array " + g.indices().array() + " holds indices and is written");
    }
    return g;
  }

  private ArrayAccess.Gather gatherCode(Gathers g, int context) {
    String what = "the index into array " + g.indices().array();
    return new ArrayAccess.Gather(g.indices().array(), affine(g.scale(), context, what),
        affine(g.offset(), context, what));
  }

  private AffineCode affine(Node n, int context, String what) {
    Affine a = Affine.of(n);
    if (a == null) throw new Unguardable(what + " is not affine");
    AffineCode c;
    try {
      c = AffineCode.of(a, code, this::var);
    } catch (IllegalArgumentException e) {
      throw new Unguardable(what + " cannot be computed: " + e.getMessage());
    }
    if (!c.within(scope[context])) throw new Unguardable(what + " reads the variable of a loop it is not in");
    return c;
  }

  private int var(Node v) {
    if (v instanceof Index) return 0;
    Integer k = varOfLoop.get(((LoopVar) v).loop());
    if (k == null) throw new Unguardable("an index reads the variable of a loop it is not in");
    return k;
  }

  private static Element element(int array, Node index, Node row) {
    return new Element(array, Affine.of(index), row == null ? null : Affine.of(row));
  }

  /**
   * The promise the disjointness test relies on: a load of a written argument reads an element the same
   * iteration writes, so that no other iteration running at once writes it; or, in an array of arrays, any
   * element of a row the same iteration writes, and then the test is of whole rows (see {@link WrittenArray}).
   */
  private void checkReadsOfWrittenArrays() {
    for (Element e : read) {
      if (!stores.containsKey(e.array()) || written.contains(e)) continue;
      boolean ownRow = e.row() != null && written.stream().anyMatch(w -> w.array() == e.array() && e.row().equals(w.row()));
      if (!ownRow) throw new Unguardable("array " + e.array() + " is read at an element another iteration may write");
      wholeRows.add(e.array());
    }
  }

  /**
   * True when {@link WrittenArray}'s test for {@code array} passes in every launch, so that none is needed, as
   * for most flat loops: the stores are in the outermost loop's body and index the argument by its variable
   * alone, with one constant coefficient {@code a} and constant offsets spread by less than {@code |a|}; the
   * one variable then weighs {@code |a·step| >= |a|}, more than the spread.
   */
  private boolean disjointByConstants(int array, List<ArrayAccess> accesses) {
    if (accesses.stream().anyMatch(a -> a.context != 0)) return false;
    Node coefficient = null;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (Element e : written) {
      if (e.array() != array) continue;
      Map<Node, Node> terms = e.index().coefficients();
      if (e.row() != null || terms.size() != 1 || !(terms.get(Index.I) instanceof Const a)
          || (coefficient != null && !coefficient.equals(a)) || !(e.index().constant() instanceof Const c)) {
        return false;
      }
      coefficient = a;
      min = Math.min(min, c.intValue());
      max = Math.max(max, c.intValue());
    }
    return Math.abs((long) ((Const) coefficient).intValue()) > max - min;
  }

  /** The disjointness test of argument {@code array}, written by {@code accesses}. */
  private WrittenArray writtenArray(int array, List<ArrayAccess> accesses) {
    Affine first = null;
    Affine firstRow = null;
    boolean[] around = new boolean[scope.length];
    for (Element e : written) {
      if (e.array() != array) continue;
      if (first == null) {
        first = e.index();
        firstRow = e.row();
      } else if (!first.coefficients().equals(e.index().coefficients())
          || (firstRow != null && !firstRow.coefficients().equals(e.row().coefficients()))) {
        throw new Unguardable("array " + array + " is written at indices with different coefficients");
      }
    }
    for (ArrayAccess a : accesses) {
      for (int v = 0; v < around.length; v++) around[v] |= scope[a.context][v];
    }
    int n = 0;
    for (boolean b : around) n += b ? 1 : 0;
    int[] vars = new int[n];
    boolean[] parallel = new boolean[n];
    long[] strides = new long[n];
    int k = 0;
    for (int v = 0; v < around.length; v++) {
      if (!around[v]) continue;
      vars[k] = v;
      parallel[k] = v == 0 ? !t.ordered() : loopOfVar.get(v - 1).parallel();
      strides[k++] = v == 0 ? 0 : inner.get(v - 1).stride();
    }
    AffineCode[] indices = accesses.stream().map(a -> a.index).toArray(AffineCode[]::new);
    AffineCode[] rows = firstRow == null ? null : accesses.stream().map(a -> a.row).toArray(AffineCode[]::new);
    int[] contexts = accesses.stream().mapToInt(a -> a.context).distinct().toArray();
    return new WrittenArray(array, indices, rows, wholeRows.contains(array), contexts, vars, parallel, strides);
  }
}
