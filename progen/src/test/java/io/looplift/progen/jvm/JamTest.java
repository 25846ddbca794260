package io.looplift.progen.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which level the jam picks, and how each loop inside it runs. */
class JamTest {
  private static final Node I = Index.I;
  private static final Node ZERO = Const.ofInt(0);
  private static final Node N = new Param(0, Type.INT);

  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  private static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  /** Loop {@code id} from 0 while {@code cond limit}, summing {@code term} from 0. */
  private static Loop sum(int id, Cond cond, Node limit, Node term) {
    Node s = new CarriedVar(id, 0, Type.DOUBLE);
    return new Loop(id, ZERO, limit, cond, 1, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, term))), List.of(),
        Const.TRUE, false);
  }

  /** {@code for i: { body; y[i] = out(1); }} over doubles, array 0 an array of rows when {@code rows}. */
  private static LoopTemplate outer(Loop first, boolean rows) {
    Store y = new Store(2, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE);
    return new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(), List.<Stmt>of(first, y),
        List.of(), rows ? List.of(0) : List.of(), false);
  }

  private static Map<Level, Jam> plan(LoopTemplate t) {
    return Jam.plan(Level.root(t, NestDimension.of(t), false), t);
  }

  private static Node x(Node index) { return new Load(1, Type.DOUBLE, index, null, 1); }

  @Test
  void aConvolutionJamsTheOutermostLoopAroundItsSharedTapLoop() {
    Map<Level, Jam> jams = plan(outer(sum(1, Cond.LT, N, mul(x(add(I, new LoopVar(1))), x(new LoopVar(1)))), false));
    assertEquals(1, jams.size());
    Jam jam = jams.values().iterator().next();
    assertEquals(I, jam.level().var());
    assertEquals(Jam.Fusion.SHARED, jam.fusion(jam.level().children().get(0)));
  }

  @Test
  void rowLengthsAreCheckedPerBlock() {
    Node row = new Load(0, Type.DOUBLE, new LoopVar(1), I, 1);
    Jam jam = plan(outer(sum(1, Cond.LT, new Length(0, I), mul(row, x(new LoopVar(1)))), true)).values().iterator().next();
    assertEquals(Jam.Fusion.CHECKED, jam.fusion(jam.level().children().get(0)));
    assertEquals(List.of(jam.level().children().get(0)), jam.checked());
  }

  @Test
  void aTriangularLoopDiffersPerInstanceSoNothingIsJammed() {
    assertTrue(plan(outer(sum(1, Cond.LE, I, x(new LoopVar(1))), false)).isEmpty());
  }

  @Test
  void aLoopBoundByASquareRootsThroughputIsJammedInLanesNotByFour() {
    // s += sqrt(x[j] + x[i]): x[i] is the lane's own, computed once per lane before the j loop.
    Node term = Unary.of(UnaryOp.SQRT, add(x(new LoopVar(1)), x(I)));
    Map<Level, Jam> jams = plan(outer(sum(1, Cond.LT, N, term), false));
    assertEquals(1, jams.size());
    Jam jam = jams.values().iterator().next();
    assertTrue(jam.inLanes());
    assertEquals(List.of(Val.of(x(I))), jam.laneValues());
  }

  @Test
  void aLatencyBoundSumOverPairsIsJammedInLanesToo() {
    // s += x[j] * x[i]: four chains by the jam, a vector of them in lanes.
    Map<Level, Jam> jams = plan(outer(sum(1, Cond.LT, N, mul(x(new LoopVar(1)), x(I))), false));
    assertEquals(1, jams.size());
    assertTrue(jams.values().iterator().next().inLanes());
  }

  @Test
  void aLoadThatDependsOnTheLaneAndTheInnerLoopKeepsItOutOfLanes() {
    // s += sqrt(x[i + j]): in a lane loop this load would stop C2 from vectorizing it.
    Node term = Unary.of(UnaryOp.SQRT, x(add(I, new LoopVar(1))));
    assertTrue(plan(outer(sum(1, Cond.LT, N, term), false)).isEmpty());
  }

  @Test
  void theInnermostParallelLoopIsJammedNotTheOuterOne() {
    // for i: for j (parallel): { s = sum over k of a[i*n+k] * b[k*n+j]; c[i*n+j] = s; }
    Node j = new LoopVar(1);
    Node k = new LoopVar(2);
    Loop dot = sum(2, Cond.LT, N, mul(new Load(0, Type.DOUBLE, add(mul(I, N), k), null, 1), x(add(mul(k, N), j))));
    Store c = new Store(2, Type.DOUBLE, add(mul(I, N), j), new LoopOut(2, 0, Type.DOUBLE), Const.TRUE);
    Loop middle = new Loop(1, ZERO, N, Cond.LT, 1, List.of(), List.of(dot, c), Const.TRUE, true);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(Type.INT), List.of(),
        List.of(middle), List.of(), List.of(), false);
    Map<Level, Jam> jams = plan(t);
    assertEquals(1, jams.size());
    assertEquals(j, jams.keySet().iterator().next().var());
  }
}
