package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Whatever the guard accepts is safe: random loop nests of two and three levels, whose indices and bounds are
 * affine in the loop variables with constant and parameter coefficients, are walked point by point in Java's
 * order; wherever the guard accepts a launch, every inner loop counts, every access is in bounds, and no
 * element is written by two different tuples of parallel variables.
 */
class LaunchGuardPropertyTest {
  private static final Cond[] CONDS = {Cond.LT, Cond.LE, Cond.NE, Cond.GT, Cond.GE};
  private static final int[] STEPS = {1, 1, 1, 2, -1, -2};
  private static final int PARAMS = 2;

  /** An affine expression over variables 0 (i), 1 (j), 2 (k): a constant and a coefficient per variable. */
  private static final class Form {
    final int constant;
    /** Per variable: a constant coefficient, or {@code -1 - p} for parameter {@code p}. */
    final int[] coefs = new int[3];

    Form(Random rnd, int vars, int spread) {
      constant = rnd.nextInt(spread) - 2;
      for (int v = 0; v < vars; v++) coefs[v] = rnd.nextInt(5) == 0 ? -1 - rnd.nextInt(PARAMS) : rnd.nextInt(5) - 2;
    }

    private Form(int constant) {
      this.constant = constant;
    }

    /** {@code constant + v}. */
    static Form variable(int v, int constant) {
      Form f = new Form(constant);
      f.coefs[v] = 1;
      return f;
    }

    Form(Form like, int constant) {
      this.constant = constant;
      System.arraycopy(like.coefs, 0, coefs, 0, coefs.length);
    }

    long value(long[] params, long[] x) {
      long sum = constant;
      for (int v = 0; v < 3; v++) sum += (coefs[v] < 0 ? params[-1 - coefs[v]] : coefs[v]) * x[v];
      return sum;
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder().append(constant);
      for (int v = 0; v < 3; v++) {
        if (coefs[v] != 0) b.append(" + ").append(coefs[v] < 0 ? "p" + (-1 - coefs[v]) : coefs[v]).append("*").append("ijk".charAt(v));
      }
      return b.toString();
    }

    Node node(Node[] vars) {
      Node sum = Const.ofInt(constant);
      for (int v = 0; v < 3; v++) {
        if (coefs[v] == 0) continue;
        Node c = coefs[v] < 0 ? new Param(-1 - coefs[v], Type.INT) : Const.ofInt(coefs[v]);
        sum = Binary.of(BinaryOp.ADD, sum, Binary.of(BinaryOp.MUL, c, vars[v]));
      }
      return sum;
    }
  }

  /** One inner loop: bounds over the variables around it, or a limit that is the length of row {@code i}. */
  private record Level(Form start, Form limit, boolean rowLength, Cond cond, int step, boolean parallel) {
    LoopShape shape() { return new LoopShape(cond, step); }
  }

  /** A nest: levels 1 (and 2), stores into argument 0 at {@code index} (and {@code index + delta}), a read. */
  private record Nest(List<Level> levels, boolean rows, Form row, Form index, int delta, boolean twoStores, Form read,
      boolean ordered) {}

  private static Nest randomNest(Random rnd) {
    int depth = 2 + rnd.nextInt(2);
    boolean rows = rnd.nextInt(3) == 0;
    List<Level> levels = new ArrayList<>();
    for (int l = 0; l < depth - 1; l++) {
      boolean rowLength = rows && l == 0 && rnd.nextInt(2) == 0;
      // Half the loops have constant bounds: boxes, where the disjointness test matters most.
      int around = rnd.nextBoolean() ? 0 : l + 1;
      Form start = new Form(rnd, around, 4);
      Form limit = new Form(rnd, around, 9);
      int step = STEPS[rnd.nextInt(STEPS.length)];
      Cond cond = CONDS[rnd.nextInt(CONDS.length)];
      if (rnd.nextInt(4) != 0) cond = step > 0 ? (rnd.nextBoolean() ? Cond.LT : Cond.LE) : (rnd.nextBoolean() ? Cond.GT : Cond.GE);
      levels.add(new Level(start, limit, rowLength, cond, step, rnd.nextBoolean()));
    }
    Form index = new Form(rnd, depth, 5);
    Form row = !rows ? null : rnd.nextBoolean() ? new Form(rnd, depth, 4) : Form.variable(rnd.nextInt(depth), rnd.nextInt(3));
    boolean ordered = levels.get(0).parallel() && depth == 2 && rnd.nextInt(3) == 0;
    return new Nest(levels, rows, row, index, 1 + rnd.nextInt(3), rnd.nextBoolean(), new Form(rnd, depth, 5), ordered);
  }

  private static LoopTemplate template(Nest n) {
    Node[] vars = {Index.I, new LoopVar(1), new LoopVar(2)};
    Node row = n.rows() ? n.row().node(vars) : null;
    Node read = new Load(1, Type.DOUBLE, n.read().node(vars), null, 0);
    List<Stmt> body = new ArrayList<>();
    body.add(new Store(0, Type.DOUBLE, n.index().node(vars), read, Const.TRUE, row));
    if (n.twoStores()) {
      Node second = new Form(n.index(), n.index().constant + n.delta()).node(vars);
      body.add(new Store(0, Type.DOUBLE, second, read, Const.TRUE, row));
    }
    for (int l = n.levels().size() - 1; l >= 0; l--) {
      Level level = n.levels().get(l);
      Node limit = level.rowLength() ? new Length(0, Index.I) : level.limit().node(vars);
      body = List.of(new Loop(l + 1, level.start().node(vars), limit, level.cond(), level.step(), List.of(), body,
          Const.TRUE, level.parallel()));
    }
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.INT, Type.INT), List.of(), body, List.of(),
        n.rows() ? List.of(0) : List.of(), n.ordered());
  }

  /** Walks the nest in Java's order; returns what would go wrong, or null. */
  private static final class Walk {
    final Nest n;
    final Object[] arrays;
    final long[] params;
    final long[] x = new long[3];
    /** By array (a row, or a flat argument), by element: the parallel variables' values that wrote it. */
    final Map<Object, Map<Long, List<Long>>> writers = new IdentityHashMap<>();
    /** The same for reads, to catch a read of what another work item writes. */
    final Map<Object, Map<Long, List<Long>>> readers = new IdentityHashMap<>();

    Walk(Nest n, Object[] arrays, long[] params) {
      this.n = n;
      this.arrays = arrays;
      this.params = params;
    }

    String run(int start, int step, int trips) {
      for (int t = 0; t < trips; t++) {
        x[0] = start + (long) t * step;
        String failed = level(0);
        if (failed != null) return failed;
      }
      return null;
    }

    private String level(int l) {
      if (l == n.levels().size()) return body();
      Level level = n.levels().get(l);
      int s = (int) level.start().value(params, x);
      int limit;
      if (level.rowLength()) {
        Object[] m = (Object[]) arrays[0];
        if (x[0] < 0 || x[0] >= m.length || m[(int) x[0]] == null) return "the limit reads a missing row";
        limit = ((double[]) m[(int) x[0]]).length;
      } else {
        limit = (int) level.limit().value(params, x);
      }
      long trips = level.shape().trips(s, limit);
      if (trips < 0) return "a loop does not count";
      for (long k = 0; k < trips; k++) {
        x[l + 1] = s + k * level.step();
        String failed = level(l + 1);
        if (failed != null) return failed;
      }
      return null;
    }

    private String body() {
      long r = n.read().value(params, x);
      if (r < 0 || r >= ((double[]) arrays[1]).length) return "a read out of bounds";
      String failed = touch(readers, writers, arrays[1], r);
      if (failed == null) failed = write(n.index().value(params, x));
      if (failed == null && n.twoStores()) failed = write(n.index().value(params, x) + n.delta());
      return failed;
    }

    private String write(long column) {
      Object target = arrays[0];
      if (n.rows()) {
        Object[] m = (Object[]) arrays[0];
        long row = n.row().value(params, x);
        if (row < 0 || row >= m.length || m[(int) row] == null) return "a missing row";
        target = m[(int) row];
      }
      if (column < 0 || column >= ((double[]) target).length) return "a write out of bounds";
      String failed = touch(writers, writers, target, column);
      return failed != null ? failed : touch(writers, readers, target, column);
    }

    /**
     * Notes in {@code mine} that the current work item (the values of the parallel variables) touches element
     * {@code e} of {@code array}; fails where {@code others} has another work item touching it.
     */
    private String touch(Map<Object, Map<Long, List<Long>>> mine, Map<Object, Map<Long, List<Long>>> others,
        Object array, long e) {
      List<Long> item = new ArrayList<>();
      item.add(n.ordered() ? 0 : x[0]);
      for (int l = 0; l < n.levels().size(); l++) item.add(n.levels().get(l).parallel() ? x[l + 1] : 0);
      List<Long> other = others.getOrDefault(array, Map.of()).get(e);
      if (other != null && !other.equals(item)) return "work items " + other + " and " + item + " touch one element";
      mine.computeIfAbsent(array, k -> new HashMap<>()).putIfAbsent(e, item);
      return null;
    }
  }

  /** The arguments of a launch: sometimes with missing or repeated rows, or the read array written too. */
  private static Object[] arguments(Nest n, Random rnd) {
    double[] read = new double[rnd.nextInt(60)];
    if (!n.rows()) {
      double[] written = new double[rnd.nextInt(80)];
      return new Object[] {written, rnd.nextInt(20) == 0 ? written : read};
    }
    double[][] m = new double[rnd.nextInt(8)][];
    for (int r = 0; r < m.length; r++) {
      int kind = rnd.nextInt(10);
      m[r] = kind == 0 ? null : kind <= 2 && r > 0 ? m[rnd.nextInt(r)] : kind == 3 ? read : new double[rnd.nextInt(12)];
    }
    return new Object[] {m, read};
  }

  @Test
  void everyLaunchTheGuardAcceptsIsSafe() {
    Random rnd = new Random(20240611);
    LaunchGuard guard = new LaunchGuard();
    int accepted = 0;
    int caught = 0;
    for (int c = 0; c < 6_000; c++) {
      Nest n = randomNest(rnd);
      LoopTemplate t = template(n);
      Object[] arrays = arguments(n, rnd);
      long[] params = new long[PARAMS];
      for (int p = 0; p < PARAMS; p++) params[p] = rnd.nextInt(7) - 2;
      int step = STEPS[rnd.nextInt(STEPS.length)];
      int start = rnd.nextInt(8) - 2;
      int trips = 1 + rnd.nextInt(6);
      String reason = guard.check(c, t, false, arrays, params, new long[0], start, step, trips);
      String wrong = new Walk(n, arrays, params).run(start, step, trips);
      if (reason == null) {
        accepted++;
        if (wrong != null) fail("accepted, but " + wrong + ": " + n + " params " + Arrays.toString(params) + " from " + start + " by " + step + " x" + trips);
      } else if (wrong != null) {
        caught++;
      }
    }
    // Not vacuous: many launches are accepted, and many would have gone wrong.
    assertTrue(accepted > 1_000, accepted + " accepted");
    assertTrue(caught > 2_000, caught + " caught");
  }
}
