package io.looplift.progen.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Compare;
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
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How loop nests map to kernels: which loops become NDRange dimensions, and what runs inside a work item. */
class NestKernelTest {
  private static final Node I = Index.I;
  private static final Node ZERO = Const.ofInt(0);
  private static final Node N = new Param(0, Type.INT);

  private static Node add(Node x, Node y) { return Binary.of(BinaryOp.ADD, x, y); }

  private static Node mul(Node x, Node y) { return Binary.of(BinaryOp.MUL, x, y); }

  private static Loop loop(int id, Node limit, List<Carried> carried, List<Stmt> body, boolean parallel) {
    return new Loop(id, ZERO, limit, Cond.LT, 1, carried, body, Const.TRUE, parallel);
  }

  private static LoopTemplate nest(List<Type> arrays, List<Stmt> body, List<Integer> rows, boolean ordered) {
    return new LoopTemplate(arrays, List.of(Type.INT), List.of(), body, List.of(), rows, ordered);
  }

  /** {@code for i: for (j < n) { double s = 0; for (k < n) s += a[i*n + k] * b[k*n + j]; c[i*n + j] = s; }} */
  private static LoopTemplate matrixProduct() {
    Node s = new CarriedVar(2, 0, Type.DOUBLE);
    Node ab = mul(new Load(0, Type.DOUBLE, add(mul(I, N), new LoopVar(2))), new Load(1, Type.DOUBLE, add(mul(new LoopVar(2), N), new LoopVar(1))));
    Loop k = loop(2, N, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(s, ab))), List.of(), false);
    Store c = new Store(2, Type.DOUBLE, add(mul(I, N), new LoopVar(1)), new LoopOut(2, 0, Type.DOUBLE), Const.TRUE);
    return nest(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(loop(1, N, List.of(), List.of(k, c), true)), List.of(), false);
  }

  /** {@code for i: for (j < n) col[j] += m[i][j]}, the outer loop in order. */
  private static LoopTemplate columnSums(Node limit) {
    Node sum = add(new Load(1, Type.FLOAT, new LoopVar(1)), new Load(0, Type.FLOAT, new LoopVar(1), I, 0));
    Loop j = loop(1, limit, List.of(), List.of(new Store(1, Type.FLOAT, new LoopVar(1), sum, Const.TRUE)), true);
    return nest(List.of(Type.FLOAT, Type.FLOAT), List.of(j), List.of(0), true);
  }

  @Test
  void aMatrixProductRunsOverTwoDimensionsWithItsSumInsideTheWorkItem() {
    LoopTemplate t = matrixProduct();
    KernelLayout layout = KernelLayout.of(t);
    assertEquals(2, layout.dimensions());
    assertEquals(List.of(1), layout.band().stream().map(Loop::id).toList());
    String src = OpenClGenerator.generate(t, 64).source();
    assertFalse(src.contains("reqd_work_group_size"), "a launch picks the 2-D work-group shape");
    assertTrue(src.contains("const int start1,\n    const int trips1)"));
    // The band loop is dimension 0 (neighbouring j, neighbouring elements of c), the outer loop dimension 1.
    assertTrue(src.contains("if (g0 >= trips1 || g1 >= trips) return;"));
    assertTrue(src.contains("const int i = as_int(as_uint(start) + as_uint((int) g1) * as_uint(step));"));
    assertTrue(src.contains("const int j1 = as_int(as_uint(start1) + as_uint((int) g0) * as_uint(1));"));
    assertTrue(src.contains("for (int j2 = v1; j2 < p0; j2 += 1) {"), src);
    assertTrue(src.contains("c2_0 = "));
    assertTrue(src.contains("out2_0 = c2_0;"));
    assertTrue(src.contains("__global double* restrict a2"));
    assertTrue(src.contains("#pragma OPENCL FP_CONTRACT OFF"));
  }

  @Test
  void threeParallelLoopsAreThreeDimensionsAndNoMore() {
    Node at = add(mul(add(mul(I, N), new LoopVar(1)), N), new LoopVar(2));
    Loop w = loop(3, N, List.of(), List.of(new Store(1, Type.INT, add(mul(at, N), new LoopVar(3)), new Load(0, Type.INT, I), Const.TRUE)), true);
    Loop x = loop(2, N, List.of(), List.of(w), true);
    Loop y = loop(1, N, List.of(), List.of(x), true);
    LoopTemplate t = nest(List.of(Type.INT, Type.INT), List.of(y), List.of(), false);
    KernelLayout layout = KernelLayout.of(t);
    assertEquals(3, layout.dimensions());
    assertEquals(List.of(1, 2), layout.band().stream().map(Loop::id).toList());
    String src = OpenClGenerator.generate(t, 64).source();
    assertTrue(src.contains("if (g0 >= trips2 || g1 >= trips1 || g2 >= trips) return;"));
    assertTrue(src.contains("for (int j3 = "), "the fourth parallel loop runs inside the work item");
  }

  @Test
  void whatIsNotAPerfectlyNestedParallelLoopWithFixedBoundsRunsInsideTheWorkItem() {
    Node store = new LoopVar(1);
    Loop byLength = new Loop(1, ZERO, new Length(0, I), Cond.LT, 1, List.of(),
        List.of(new Store(0, Type.INT, store, I, Const.TRUE, I)), Const.TRUE, true);
    assertTrue(KernelLayout.of(nest(List.of(Type.INT), List.of(byLength), List.of(0), false)).chunked());
    Loop predicated = new Loop(1, ZERO, N, Cond.LT, 1, List.of(),
        List.of(new Store(0, Type.INT, add(mul(I, N), store), I, Const.TRUE)), new Compare(Cond.GT, I, ZERO), true);
    assertTrue(KernelLayout.of(nest(List.of(Type.INT), List.of(predicated), List.of(), false)).chunked());
    Loop triangular = new Loop(1, ZERO, I, Cond.LT, 1, List.of(),
        List.of(new Store(0, Type.INT, add(mul(I, N), store), I, Const.TRUE)), Const.TRUE, true);
    assertTrue(KernelLayout.of(nest(List.of(Type.INT), List.of(triangular), List.of(), false)).chunked());
    Loop rectangular = loop(1, N, List.of(), List.of(new Store(0, Type.INT, add(mul(I, N), store), I, Const.TRUE)), true);
    Store after = new Store(1, Type.INT, I, I, Const.TRUE);
    assertTrue(KernelLayout.of(nest(List.of(Type.INT, Type.INT), List.of(rectangular, after), List.of(), false)).chunked(),
        "not the whole body of the outer loop");
  }

  @Test
  void aNestWithReductionsStaysOneDimensionalWithPartialsPerWorkGroup() {
    Node sum = new LoopOut(1, 0, Type.INT);
    Loop j = loop(1, N, List.of(new Carried(Type.INT, ZERO, add(new CarriedVar(1, 0, Type.INT),
        new Load(0, Type.INT, add(mul(I, N), new LoopVar(1)))))), List.of(), false);
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(Type.INT), List.of(Type.INT), List.of(j),
        List.of(new Reduction(0, Type.INT, add(new Acc(0, Type.INT), sum), ReduceOp.ADD, sum)), List.of(), false);
    assertTrue(KernelLayout.of(t).chunked());
    String src = OpenClGenerator.generate(t, 32).source();
    assertTrue(src.contains("reqd_work_group_size(32, 1, 1)"));
    assertTrue(src.contains("r0 = comb0(r0, out1_0);"), src);
    assertTrue(src.contains("part0[get_group_id(0)] = l0[0];"));
  }

  @Test
  void anOrderedNestRunsTheOuterLoopInsideEachWorkItemOfItsParallelLoop() {
    LoopTemplate t = columnSums(N);
    KernelLayout layout = KernelLayout.of(t);
    assertTrue(layout.ordered());
    assertEquals(1, layout.dimensions());
    String src = OpenClGenerator.generate(t, 64).source();
    int band = src.indexOf("const int j1 = ");
    int outer = src.indexOf("for (int k = 0; k < trips; k++) {");
    assertTrue(band > 0 && outer > band, src);
    assertTrue(src.indexOf("a1[j1] = ") > outer);
  }

  @Test
  void rowsAreIndexedThroughTheirOffsets() {
    Node s = new CarriedVar(1, 0, Type.DOUBLE);
    Loop j = loop(1, new Length(0, I), List.of(new Carried(Type.DOUBLE, Const.ofDouble(0),
        add(s, new Load(0, Type.DOUBLE, new LoopVar(1), I, 0)))), List.of(), false);
    LoopTemplate t = nest(List.of(Type.DOUBLE, Type.DOUBLE), List.of(j, new Store(1, Type.DOUBLE, I, new LoopOut(1, 0, Type.DOUBLE), Const.TRUE)),
        List.of(0), false);
    String src = OpenClGenerator.generate(t, 64).source();
    assertTrue(src.contains("__global const double* restrict a0,\n    __global const long* restrict off0,"), src);
    assertTrue(src.contains("(int) (off0[i + 1] - off0[i])"));
    assertTrue(src.contains("a0[off0[i] + j1]"));
  }

  @Test
  void aLoopWhosePredicateFailsComputesNeitherItsBoundsNorItsInitialValues() {
    Node masked = new Compare(Cond.NE, new Load(0, Type.INT, I), ZERO);
    Node bound = new Load(1, Type.INT, I);
    Loop k = new Loop(1, ZERO, bound, Cond.LT, 1, List.of(new Carried(Type.INT, new Load(2, Type.INT, I), new CarriedVar(1, 0, Type.INT))),
        List.of(), masked, false);
    LoopTemplate t = nest(List.of(Type.INT, Type.INT, Type.INT, Type.INT),
        List.of(k, new Store(3, Type.INT, I, new LoopOut(1, 0, Type.INT), Const.TRUE)), List.of(), false);
    String src = OpenClGenerator.generate(t, 64).source();
    int test = src.indexOf("if (v");
    assertTrue(test > src.indexOf("a0[i]"), src);
    assertTrue(src.indexOf("a1[i]") > test);
    assertTrue(src.indexOf("a2[i]") > test);
    assertTrue(src.indexOf("int out1_0 = 0;") < test);
  }

  @Test
  void declinesNestsItCannotRunExactly() {
    DeviceFeatures full = DeviceFeatures.FULL;
    assertEquals("the parallel loop inside an outer loop that runs in order has a condition or bounds that change",
        OpenClGenerator.rejection(columnSums(I), true, true, full).orElseThrow());

    Node sum = new LoopOut(1, 0, Type.DOUBLE);
    Loop j = loop(1, N, List.of(new Carried(Type.DOUBLE, Const.ofDouble(0), add(new CarriedVar(1, 0, Type.DOUBLE),
        new Load(0, Type.DOUBLE, add(mul(I, N), new LoopVar(1)))))), List.of(), false);
    LoopTemplate total = new LoopTemplate(List.of(Type.DOUBLE), List.of(Type.INT), List.of(Type.DOUBLE), List.of(j),
        List.of(new Reduction(0, Type.DOUBLE, add(new Acc(0, Type.DOUBLE), sum), ReduceOp.ADD, sum)), List.of(), false);
    assertEquals("accumulator 0 is a double add reduction: needs reductions=reassociate",
        OpenClGenerator.rejection(total, false, false, full).orElseThrow());
    assertTrue(OpenClGenerator.supports(total, true, false, full));

    Loop readsAcc = loop(1, new Acc(0, Type.INT), List.of(), List.of(), false);
    LoopTemplate counted = new LoopTemplate(List.of(Type.INT), List.of(Type.INT), List.of(Type.INT), List.of(readsAcc),
        List.of(new Reduction(0, Type.INT, add(new Acc(0, Type.INT), I), ReduceOp.ADD, I)), List.of(), false);
    assertEquals("inner loop 1 reads an accumulator, so iterations run in order",
        OpenClGenerator.rejection(counted, true, true, full).orElseThrow());

    Loop unrowed = loop(1, N, List.of(), List.of(new Store(0, Type.INT, add(mul(I, N), new LoopVar(1)), I, Const.TRUE)), true);
    assertEquals("argument 0 is an array of arrays used as an array of elements",
        OpenClGenerator.rejection(nest(List.of(Type.INT), List.of(unrowed), List.of(0), false), true, true, full).orElseThrow());

    assertEquals("the device has no double precision",
        OpenClGenerator.rejection(matrixProduct(), true, true, new DeviceFeatures(false, true, true, false)).orElseThrow());
  }
}
