package io.looplift.executors.opencl;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.List;

/**
 * Loop nests built by hand as the analyzer builds them from Java loops (each method's comment gives the
 * loop), for the OpenCL nest tests. Loop ids number the loops from the outside in; load epochs follow the
 * segments they are read in.
 */
final class Nests {
  static final Node I = Index.I;
  static final Node ZERO = Const.ofInt(0);

  private Nests() {}

  static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  static Node sub(Node x, Node y) { return Binary.of(BinaryOp.SUB, x, y); }

  static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  static Node div(Node x, Node y) { return Binary.of(BinaryOp.DIV, x, y); }

  static Node param(int k) { return new Param(k, Type.INT); }

  static Node v(int loop) { return new LoopVar(loop); }

  static Node load(int array, Type t, Node index) { return new Load(array, t, index); }

  static Node row(int array, Type t, Node row, Node index) { return new Load(array, t, index, row, 0); }

  /** {@code for (v = start; v < limit; v++)}, always run. */
  static Loop loop(int id, Node start, Node limit, List<Carried> carried, List<Stmt> body, boolean parallel) {
    return new Loop(id, start, limit, Cond.LT, 1, carried, body, Const.TRUE, parallel);
  }

  static LoopTemplate nest(List<Type> arrays, List<Type> params, List<Stmt> body, List<Integer> rows) {
    return new LoopTemplate(arrays, params, List.of(), body, List.of(), rows, false);
  }

  /**
   * {@code for i: for (j < p1) { float s = 0; for (k < p0) s += a[i*p0 + k] * b[k*p1 + j]; c[i*p1 + j] = s; }}:
   * i and j parallel, so a two-dimensional range.
   */
  static LoopTemplate matrixProduct() {
    Node m = param(0);
    Node p = param(1);
    Node s = new CarriedVar(2, 0, Type.FLOAT);
    Node ab = mul(load(0, Type.FLOAT, add(mul(I, m), v(2))), load(1, Type.FLOAT, add(mul(v(2), p), v(1))));
    Loop k = loop(2, ZERO, m, List.of(new Carried(Type.FLOAT, Const.ofFloat(0), add(s, ab))), List.of(), false);
    Store c = new Store(2, Type.FLOAT, add(mul(I, p), v(1)), new LoopOut(2, 0, Type.FLOAT), Const.TRUE);
    Loop j = loop(1, ZERO, p, List.of(), List.of(k, c), true);
    return nest(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(Type.INT, Type.INT), List.of(j), List.of());
  }

  /**
   * {@code for i: for (k < p0) for (j < p1) c[i][j] += a[i][k] * b[k][j]} over {@code float[][]}s: row
   * {@code c[i]} is the same through both inner loops, k carries c's elements through memory, so only i is
   * a dimension (j is parallel, but not perfectly nested in a parallel loop).
   */
  static LoopTemplate rowMatrixProduct() {
    Node cij = row(2, Type.FLOAT, I, v(2));
    Node update = add(cij, mul(row(0, Type.FLOAT, I, v(1)), row(1, Type.FLOAT, v(1), v(2))));
    Loop j = loop(2, ZERO, param(1), List.of(), List.of(new Store(2, Type.FLOAT, v(2), update, Const.TRUE, I)), true);
    Loop k = loop(1, ZERO, param(0), List.of(), List.of(j), false);
    return nest(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(Type.INT, Type.INT), List.of(k), List.of(0, 1, 2));
  }

  /** {@code for i: { double s = 0; for (k < p0) s += x[i + k] * w[k]; y[i] = s; }} */
  static LoopTemplate convolution() {
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node term = mul(load(0, Type.DOUBLE, add(I, v(1))), load(1, Type.DOUBLE, v(1)));
    Loop k = loop(1, ZERO, param(0), List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, term))), List.of(), false);
    Store y = new Store(2, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(k, y), List.of());
  }

  /**
   * One n-body step in the plane, arrays x, y, m, vx, vy and parameters n, dt, eps:
   * <pre>
   * for i: { float ax = 0, ay = 0;
   *   for (j < n) { float dx = x[j] - x[i], dy = y[j] - y[i], d2 = dx * dx + dy * dy + eps;
   *                 float f = m[j] / (d2 * (float) Math.sqrt(d2)); ax += dx * f; ay += dy * f; }
   *   vx[i] = vx[i] + ax * dt; vy[i] = vy[i] + ay * dt; }
   * </pre>
   */
  static LoopTemplate nBody() {
    Node dx = sub(load(0, Type.FLOAT, v(1)), load(0, Type.FLOAT, I));
    Node dy = sub(load(1, Type.FLOAT, v(1)), load(1, Type.FLOAT, I));
    Node d2 = add(add(mul(dx, dx), mul(dy, dy)), new Param(2, Type.FLOAT));
    Node root = Convert.of(Unary.of(UnaryOp.SQRT, Convert.of(d2, Type.DOUBLE)), Type.FLOAT);
    Node f = div(load(2, Type.FLOAT, v(1)), mul(d2, root));
    Node ax = new CarriedVar(1, 0, Type.FLOAT);
    Node ay = new CarriedVar(1, 1, Type.FLOAT);
    Loop j = loop(1, ZERO, param(0), List.of(new Carried(Type.FLOAT, Const.ofFloat(0), add(ax, mul(dx, f))),
        new Carried(Type.FLOAT, Const.ofFloat(0), add(ay, mul(dy, f)))), List.of(), false);
    Node dt = new Param(1, Type.FLOAT);
    Store vx = new Store(3, Type.FLOAT, I, add(new Load(3, Type.FLOAT, I, null, 1), mul(new LoopOut(1, 0, Type.FLOAT), dt)), Const.TRUE);
    Store vy = new Store(4, Type.FLOAT, I, add(new Load(4, Type.FLOAT, I, null, 1), mul(new LoopOut(1, 1, Type.FLOAT), dt)), Const.TRUE);
    return nest(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(Type.INT, Type.FLOAT, Type.FLOAT),
        List.of(j, vx, vy), List.of());
  }

  /** {@code for i: { double s = 0; for (j < a[i].length) s += a[i][j] * b[i][j]; out[i] = s; }} over ragged rows. */
  static LoopTemplate rowDots() {
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node term = mul(row(0, Type.DOUBLE, I, v(1)), row(1, Type.DOUBLE, I, v(1)));
    Loop j = loop(1, ZERO, new Length(0, I), List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, term))), List.of(), false);
    Store out = new Store(2, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(), List.of(j, out), List.of(0, 1));
  }

  /**
   * Two triangular loops, L an n-by-n matrix in one array (n = p0):
   * {@code for i: { double s = 0; for (j = 0; j <= i; j++) s += L[i*n + j] * x[j]; y[i] = s;
   * double t = 0; for (j = i; j >= 0; j--) t += L[i*n + j] * x[j]; z[i] = t; }}
   */
  static LoopTemplate triangular() {
    Node n = param(0);
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node t = new CarriedVar(2, 0, Type.DOUBLE);
    Node up = mul(load(0, Type.DOUBLE, add(mul(I, n), v(1))), load(1, Type.DOUBLE, v(1)));
    Node down = mul(load(0, Type.DOUBLE, add(mul(I, n), v(2))), load(1, Type.DOUBLE, v(2)));
    Loop forward = new Loop(1, ZERO, I, Cond.LE, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, up))),
        List.of(), Const.TRUE, false);
    Loop backward = new Loop(2, I, ZERO, Cond.GE, -1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(t, down))),
        List.of(), Const.TRUE, false);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT),
        List.of(forward, new Store(2, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE),
            backward, new Store(3, Type.DOUBLE, I, new LoopOut(2, 0, Type.DOUBLE), Const.TRUE)), List.of());
  }

  /**
   * A loop that runs only where a mask is set, with its bound read from an array (meaningless elsewhere),
   * and a store inside it into an element the iteration owns; arrays mask, len, data, out, acc:
   * <pre>
   * for i: { acc[i] = 1;
   *   int s = 0; if (mask[i] != 0) for (k < len[i]) { s += data[4*i + k]; acc[i] = acc[i] * 3 + data[4*i + k]; }
   *   out[i] = mask[i] != 0 ? s : -7; }
   * </pre>
   */
  static LoopTemplate predicated() {
    Node masked = new Compare(Cond.NE, load(0, Type.INT, I), ZERO);
    Node element = new Load(2, Type.INT, add(mul(Const.ofInt(4), I), v(1)), null, 1);
    Node s = new CarriedVar(1, 0, Type.INT);
    Node acc = add(mul(new Load(4, Type.INT, I, null, 1), Const.ofInt(3)), element);
    Loop k = new Loop(1, ZERO, load(1, Type.INT, I), Cond.LT, 1, List.of(new Carried(Type.INT, ZERO, add(s, element))),
        List.of(new Store(4, Type.INT, I, acc, Const.TRUE)), masked, false);
    Node result = Select.of(masked, new LoopOut(1, 0, Type.INT), Const.ofInt(-7));
    return nest(List.of(Type.INT, Type.INT, Type.INT, Type.INT, Type.INT), List.of(),
        List.of(new Store(4, Type.INT, I, Const.ofInt(1), Const.TRUE), k, new Store(3, Type.INT, I, result, Const.TRUE)), List.of());
  }

  /**
   * A row reduction, then a map over the same row that writes it:
   * {@code for i: { double s = 0; for (j < m[i].length) s += m[i][j]; for (j < m[i].length) m[i][j] = m[i][j] / s; sums[i] = s; }}
   */
  static LoopTemplate normalizeRows() {
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop sum = loop(1, ZERO, new Length(0, I), List.of(new Carried(Type.DOUBLE, Const.ofDouble(0),
        add(s, new Load(0, Type.DOUBLE, v(1), I, 1)))), List.of(), false);
    Node rowSum = new LoopOut(1, 0, Type.DOUBLE);
    Store scale = new Store(0, Type.DOUBLE, v(2), div(new Load(0, Type.DOUBLE, v(2), I, 2), rowSum), Const.TRUE, I);
    Loop map = loop(2, ZERO, new Length(0, I), List.of(), List.of(scale), true);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE), List.of(),
        List.of(sum, map, new Store(1, Type.DOUBLE, I, rowSum, Const.TRUE)), List.of(0));
  }

  /**
   * Column sums, {@code for i: for (j < p0) col[j] += m[i][j]}: the outer loop carries col's elements, so it
   * runs in order inside each iteration of the parallel j loop.
   */
  static LoopTemplate columnSums() {
    Node sum = add(load(1, Type.FLOAT, v(1)), row(0, Type.FLOAT, I, v(1)));
    Loop j = loop(1, ZERO, param(0), List.of(), List.of(new Store(1, Type.FLOAT, v(1), sum, Const.TRUE)), true);
    return new LoopTemplate(List.of(Type.FLOAT, Type.FLOAT), List.of(Type.INT), List.of(), List.of(j), List.of(), List.of(0), true);
  }

  /**
   * A five-point stencil over rows, {@code for y: for (x = 1; x < p0 - 1; x++) out[y][x] = (in[y-1][x] +
   * in[y+1][x] + in[y][x-1] + in[y][x+1]) * 0.25f - in[y][x]}: y and x are dimensions.
   */
  static LoopTemplate stencil() {
    Node x = v(1);
    Node one = Const.ofInt(1);
    Node around = add(add(add(row(0, Type.FLOAT, sub(I, one), x), row(0, Type.FLOAT, add(I, one), x)),
        row(0, Type.FLOAT, I, sub(x, one))), row(0, Type.FLOAT, I, add(x, one)));
    Node value = sub(mul(around, Const.ofFloat(0.25f)), row(0, Type.FLOAT, I, x));
    Loop inner = loop(1, one, sub(param(0), one), List.of(), List.of(new Store(1, Type.FLOAT, x, value, Const.TRUE, I)), true);
    return nest(List.of(Type.FLOAT, Type.FLOAT), List.of(Type.INT), List.of(inner), List.of(0, 1));
  }

  /**
   * Three parallel loops, a batch of images h = p0 by w = p1: {@code for b: for (y < h) for (x < w)
   * out[(b*h + y)*w + x] = in[(b*h + y)*w + x] * 2 + b}.
   */
  static LoopTemplate batch() {
    Node at = add(mul(add(mul(I, param(0)), v(1)), param(1)), v(2));
    Node value = add(mul(load(0, Type.LONG, at), Const.ofLong(2)), Convert.of(I, Type.LONG));
    Loop x = loop(2, ZERO, param(1), List.of(), List.of(new Store(1, Type.LONG, at, value, Const.TRUE)), true);
    Loop y = loop(1, ZERO, param(0), List.of(), List.of(x), true);
    return nest(List.of(Type.LONG, Type.LONG), List.of(Type.INT, Type.INT), List.of(y), List.of());
  }

  /**
   * {@code for i: { int s = 0; for (j < p0) s += a[i*p0 + j] * (j + 1); sums[i] = s; total += s; if (s < 0)
   * negative++; top = Math.max(top, s); bits ^= s; }}
   */
  static LoopTemplate rowSumReductions() {
    Node s = new CarriedVar(1, 0, Type.INT);
    Node term = mul(load(0, Type.INT, add(mul(I, param(0)), v(1))), add(v(1), Const.ofInt(1)));
    Loop j = loop(1, ZERO, param(0), List.of(new Carried(Type.INT, ZERO, add(s, term))), List.of(), false);
    Node sum = new LoopOut(1, 0, Type.INT);
    Node below = new Compare(Cond.LT, sum, ZERO);
    Node negative = new Acc(1, Type.INT);
    List<Reduction> reductions = List.of(
        new Reduction(0, Type.INT, add(new Acc(0, Type.INT), sum), ReduceOp.ADD, sum),
        new Reduction(1, Type.INT, Select.of(below, add(negative, Const.ofInt(1)), negative), ReduceOp.ADD,
            Select.of(below, Const.ofInt(1), ZERO)),
        new Reduction(2, Type.INT, Binary.of(BinaryOp.MAX, new Acc(2, Type.INT), sum), ReduceOp.MAX, sum),
        new Reduction(3, Type.INT, Binary.of(BinaryOp.XOR, new Acc(3, Type.INT), sum), ReduceOp.XOR, sum));
    return new LoopTemplate(List.of(Type.INT, Type.INT), List.of(Type.INT), List.of(Type.INT, Type.INT, Type.INT, Type.INT),
        List.of(j, new Store(1, Type.INT, I, sum, Const.TRUE)), reductions, List.of(), false);
  }
}
