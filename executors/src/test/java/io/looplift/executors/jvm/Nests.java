package io.looplift.executors.jvm;

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
 * Loop nests as the analyzer describes them, written by hand: the Java loop each stands for is in its
 * comment. Loop ids are the loops' depths; loads carry the epoch (segment) they are read in.
 */
final class Nests {
  private Nests() {}

  static final Node I = Index.I;
  static final Node ZERO = Const.ofInt(0);

  static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  static Node sub(Node x, Node y) { return Binary.of(BinaryOp.SUB, x, y); }

  static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  static Node div(Node x, Node y) { return Binary.of(BinaryOp.DIV, x, y); }

  static Node p(int index, Type t) { return new Param(index, t); }

  static Node v(int loop) { return new LoopVar(loop); }

  static Node load(int array, Type t, Node index, int epoch) { return new Load(array, t, index, null, epoch); }

  static Node rowLoad(int array, Type t, Node row, Node index, int epoch) { return new Load(array, t, index, row, epoch); }

  static Store store(int array, Type t, Node index, Node value) { return new Store(array, t, index, value, Const.TRUE); }

  /** A loop from 0 while {@code < limit} by 1. */
  static Loop loop(int id, Node limit, List<Carried> carried, List<Stmt> body, boolean parallel) {
    return new Loop(id, ZERO, limit, Cond.LT, 1, carried, body, Const.TRUE, parallel);
  }

  /** A loop carrying one sum of {@code t} from zero: {@code s += term(v(id), s)}. */
  static Loop sum(int id, Type t, Node limit, Node term) {
    Node s = new CarriedVar(id, 0, t);
    return loop(id, limit, List.of(new Carried(t, Const.ofBits(t, 0), add(s, term))), List.of(), false);
  }

  static Node out(int loop, Type t) { return new LoopOut(loop, 0, t); }

  /** A template over plain arrays with no reduction. */
  static LoopTemplate nest(List<Type> arrays, List<Type> params, Stmt... body) {
    return new LoopTemplate(arrays, params, List.of(), List.of(body), List.of(), List.of(), false);
  }

  /** {@code for i: for j (parallel): { double s = 0; for k < n: s += a[i*n+k] * b[k*n+j]; c[i*n+j] = s; }}. */
  static LoopTemplate matmul() {
    Node n = p(0, Type.INT);
    Node a = load(0, Type.DOUBLE, add(mul(I, n), v(2)), 1);
    Node b = load(1, Type.DOUBLE, add(mul(v(2), n), v(1)), 1);
    Loop k = sum(2, Type.DOUBLE, n, mul(a, b));
    Loop j = loop(1, n, List.of(), List.of(k, store(2, Type.DOUBLE, add(mul(I, n), v(1)), out(2, Type.DOUBLE))), true);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), j);
  }

  /** {@code for i: for k < n: for j < n (parallel): c[i][j] += a[i][k] * b[k][j]} over rows of double[][]. */
  static LoopTemplate rowsProduct() {
    Node n = p(0, Type.INT);
    Node cij = rowLoad(0, Type.DOUBLE, I, v(2), 1);
    Node aik = rowLoad(1, Type.DOUBLE, I, v(1), 1);
    Node bkj = rowLoad(2, Type.DOUBLE, v(1), v(2), 1);
    Loop j = loop(2, n, List.of(), List.of(new Store(0, Type.DOUBLE, v(2), add(cij, mul(aik, bkj)), Const.TRUE, I)), true);
    Loop k = loop(1, n, List.of(), List.of(j), false);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(), List.of(k),
        List.of(), List.of(0, 1, 2), false);
  }

  /** {@code for i: { float s = 0; for k < taps: s += x[i+k] * w[k]; y[i] = s; }}. */
  static LoopTemplate convolution() {
    Node taps = p(0, Type.INT);
    Loop k = sum(1, Type.FLOAT, taps, mul(load(0, Type.FLOAT, add(I, v(1)), 1), load(1, Type.FLOAT, v(1), 1)));
    return nest(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(Type.INT), k, store(2, Type.FLOAT, I, out(1, Type.FLOAT)));
  }

  /**
   * One n-body step over bodies at (px, py) with velocities (vx, vy):
   * <pre>{@code
   * for i: { float fx = 0, fy = 0;
   *   for j < n: { float dx = px[j] - px[i], dy = py[j] - py[i];
   *     float inv = 1f / (float) Math.sqrt(dx * dx + dy * dy + eps); float inv3 = inv * inv * inv;
   *     fx += dx * inv3; fy += dy * inv3; }
   *   vx[i] += fx * dt; vy[i] += fy * dt; }
   * }</pre>
   */
  static LoopTemplate nbody() {
    Node n = p(0, Type.INT);
    Node dt = p(1, Type.FLOAT);
    Node eps = p(2, Type.FLOAT);
    Node j = v(1);
    Node dx = sub(load(0, Type.FLOAT, j, 1), load(0, Type.FLOAT, I, 1));
    Node dy = sub(load(1, Type.FLOAT, j, 1), load(1, Type.FLOAT, I, 1));
    Node d2 = add(add(mul(dx, dx), mul(dy, dy)), eps);
    Node inv = div(Const.ofFloat(1f), Convert.of(Unary.of(UnaryOp.SQRT, Convert.of(d2, Type.DOUBLE)), Type.FLOAT));
    Node inv3 = mul(mul(inv, inv), inv);
    Node fx = new CarriedVar(1, 0, Type.FLOAT);
    Node fy = new CarriedVar(1, 1, Type.FLOAT);
    Loop forces = loop(1, n, List.of(new Carried(Type.FLOAT, Const.ofFloat(0), add(fx, mul(dx, inv3))),
        new Carried(Type.FLOAT, Const.ofFloat(0), add(fy, mul(dy, inv3)))), List.of(), false);
    Store vx = store(2, Type.FLOAT, I, add(load(2, Type.FLOAT, I, 2), mul(new LoopOut(1, 0, Type.FLOAT), dt)));
    Store vy = store(3, Type.FLOAT, I, add(load(3, Type.FLOAT, I, 2), mul(new LoopOut(1, 1, Type.FLOAT), dt)));
    return nest(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(Type.INT, Type.FLOAT, Type.FLOAT),
        forces, vx, vy);
  }

  /** {@code for i: { double s = 0; for k < m[i].length: s += m[i][k] * x[k]; y[i] = s; }}, m a double[][]. */
  static LoopTemplate rowDots() {
    Loop k = sum(1, Type.DOUBLE, new Length(0, I), mul(rowLoad(0, Type.DOUBLE, I, v(1), 1), load(1, Type.DOUBLE, v(1), 1)));
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(k, store(2, Type.DOUBLE, I, out(1, Type.DOUBLE))), List.of(), List.of(0), false);
  }

  /** {@code for i: { double s = 0; for (j = 0; j <= i; j++) s += a[i*n+j] * x[j]; y[i] = s; }}. */
  static LoopTemplate triangular() {
    Node n = p(0, Type.INT);
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node term = mul(load(0, Type.DOUBLE, add(mul(I, n), v(1)), 1), load(1, Type.DOUBLE, v(1), 1));
    Loop j = new Loop(1, ZERO, I, Cond.LE, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, term))),
        List.of(), Const.TRUE, false);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), j, store(2, Type.DOUBLE, I, out(1, Type.DOUBLE)));
  }

  /** {@code for i: { double s = y[i]; if (p[i] > 0) for k < n: s += a[i*n+k] * a[k]; y[i] = s; }}. */
  static LoopTemplate predicated() {
    Node n = p(0, Type.INT);
    Node pos = Compare.of(Cond.GT, load(0, Type.INT, I, 0), ZERO);
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Node init = load(2, Type.DOUBLE, I, 0);
    Node term = mul(load(1, Type.DOUBLE, add(mul(I, n), v(1)), 1), load(1, Type.DOUBLE, v(1), 1));
    Loop k = new Loop(1, ZERO, n, Cond.LT, 1, List.of(new Carried(Type.DOUBLE, init, add(s, term))), List.of(), pos, false);
    Node result = Select.of(pos, out(1, Type.DOUBLE), load(2, Type.DOUBLE, I, 2));
    return nest(List.of(Type.INT, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), k, store(2, Type.DOUBLE, I, result));
  }

  /**
   * A row reduction, then a row map that uses it:
   * {@code for i: { double s = 0; for j < m[i].length: s += m[i][j]; for j < m[i].length: m[i][j] /= s + 1; y[i] = s; }}.
   */
  static LoopTemplate rowSumThenScale() {
    Loop sum = sum(1, Type.DOUBLE, new Length(0, I), rowLoad(0, Type.DOUBLE, I, v(1), 1));
    Node scaled = div(rowLoad(0, Type.DOUBLE, I, v(2), 2), add(out(1, Type.DOUBLE), Const.ofDouble(1)));
    Loop scale = loop(2, new Length(0, I), List.of(), List.of(new Store(0, Type.DOUBLE, v(2), scaled, Const.TRUE, I)), true);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(sum, scale, store(1, Type.DOUBLE, I, out(1, Type.DOUBLE))), List.of(), List.of(0), false);
  }

  /** {@code for i (in order): for j < cols (parallel): colsum[j] += m[i*cols+j]}; ordered, so the band j splits. */
  static LoopTemplate columnSums() {
    Node cols = p(0, Type.INT);
    Node j = v(1);
    Store st = store(1, Type.DOUBLE, j, add(load(1, Type.DOUBLE, j, 1), load(0, Type.DOUBLE, add(mul(I, cols), j), 1)));
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(), List.of(loop(1, cols, List.of(),
        List.of(st), true)), List.of(), List.of(), true);
  }

  /** {@code for i (in order): for (j = 0; j <= i; j++) (parallel): colsum[j] += m[i*cols+j]}: the band changes with i. */
  static LoopTemplate triangularColumnSums() {
    Node cols = p(0, Type.INT);
    Node j = v(1);
    Store st = store(1, Type.DOUBLE, j, add(load(1, Type.DOUBLE, j, 1), load(0, Type.DOUBLE, add(mul(I, cols), j), 1)));
    Loop band = new Loop(1, ZERO, I, Cond.LE, 1, List.of(), List.of(st), Const.TRUE, true);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(), List.of(band), List.of(),
        List.of(), true);
  }

  /**
   * Loops of other shapes, into sub-int elements: {@code for i: for (j = n - 1; j >= 0; j -= 3) (parallel):
   * { long s = 7; for (k = 0; k != n; k++) s += (long) a[i*n+k] * b[k*n+j]; for (m = n; m > j; m -= 2) s ^= m;
   * out[i*n+j] = (short) s; }}.
   */
  static LoopTemplate oddShapes() {
    Node n = p(0, Type.INT);
    Node j = v(1);
    Node s = new CarriedVar(2, 0, Type.LONG);
    Node term = mul(Convert.of(load(0, Type.INT, add(mul(I, n), v(2)), 1), Type.LONG),
        Convert.of(load(1, Type.INT, add(mul(v(2), n), j), 1), Type.LONG));
    Loop k = new Loop(2, ZERO, n, Cond.NE, 1, List.of(new Carried(Type.LONG, Const.ofLong(7), add(s, term))), List.of(),
        Const.TRUE, false);
    Node t = new CarriedVar(3, 0, Type.LONG);
    Loop m = new Loop(3, n, j, Cond.GT, -2, List.of(new Carried(Type.LONG, out(2, Type.LONG),
        Binary.of(BinaryOp.XOR, t, Convert.of(v(3), Type.LONG)))), List.of(), Const.TRUE, false);
    Store st = store(2, Type.SHORT, add(mul(I, n), j), Convert.of(Convert.of(out(3, Type.LONG), Type.INT), Type.SHORT));
    Loop jLoop = new Loop(1, sub(n, Const.ofInt(1)), ZERO, Cond.GE, -3, List.of(), List.of(k, m, st), Const.TRUE, true);
    return nest(List.of(Type.INT, Type.INT, Type.SHORT), List.of(Type.INT), jLoop);
  }

  /**
   * A reduction over the outermost loop of a nest, of {@code t} ({@code int}: split into partials; {@code double}:
   * in order): {@code for i: { t s = 0; for k < n: s += a[i*n+k] * b[k]; total += s; c[i] = s; }}.
   */
  static LoopTemplate dotTotal(Type t) {
    Node n = p(0, Type.INT);
    Loop k = sum(1, t, n, mul(load(0, t, add(mul(I, n), v(1)), 1), load(1, t, v(1), 1)));
    Node s = out(1, t);
    Reduction total = new Reduction(0, t, add(new Acc(0, t), s), ReduceOp.ADD, s);
    return new LoopTemplate(List.of(t, t, t), List.of(Type.INT), List.of(t), List.of(k, store(2, t, I, s)), List.of(total),
        List.of(), false);
  }
}
