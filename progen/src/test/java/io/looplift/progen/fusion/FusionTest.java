package io.looplift.progen.fusion;

import static io.looplift.progen.fusion.TestFlush.at;
import static io.looplift.progen.fusion.TestFlush.load;
import static io.looplift.progen.fusion.TestFlush.map;
import static io.looplift.progen.fusion.TestFlush.reduce;
import static io.looplift.progen.fusion.TestFlush.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FusionTest {
  private static final Type F = Type.FLOAT;
  private static final Type I = Type.INT;
  private static final List<Type> FF = List.of(F, F);
  private static final List<Type> FFF = List.of(F, F, F);
  private static final List<Type> II = List.of(I, I);

  private static Node bin(BinaryOp op, Node x, Node y) { return Binary.of(op, x, y); }

  /** {@code t1 = a*b; t2 = t1+c; t3 = t2*0.5f; out = t3-a} with t1..t3 temporaries. */
  private static TestFlush chain(long seed) {
    TestFlush f = new TestFlush(seed, 1000);
    int a = f.live(F), b = f.live(F), c = f.live(F), out = f.live(F);
    int t1 = f.temp(F), t2 = f.temp(F), t3 = f.temp(F);
    f.loop(map(FFF, store(2, bin(BinaryOp.MUL, load(0, F), load(1, F)))), a, b, t1);
    f.loop(map(FFF, store(2, bin(BinaryOp.ADD, load(0, F), load(1, F)))), t1, c, t2);
    f.loop(map(FF, store(1, bin(BinaryOp.MUL, load(0, F), Const.ofFloat(0.5f)))), t2, t3);
    f.loop(map(FFF, store(2, bin(BinaryOp.SUB, load(0, F), load(1, F)))), t3, a, out);
    return f;
  }

  /** The producer of temporary {@code t = a*2} and its consumer {@code out = t[i+offset] + a}, n-1 iterations. */
  private static TestFlush producerConsumer(int offset) {
    TestFlush f = new TestFlush(offset, 100);
    int a = f.live(I), t = f.temp(I), out = f.live(I);
    f.loop(map(II, store(1, bin(BinaryOp.MUL, load(0, I), Const.ofInt(2)))), 0, 99, new long[0], new long[0], a, t);
    Node consumed = bin(BinaryOp.ADD, new Load(0, I, at(offset)), load(1, I));
    f.loop(map(List.of(I, I, I), store(2, consumed)), 0, 99, new long[0], new long[0], t, a, out);
    return f;
  }

  private static int[] ids(int... ids) { return ids; }

  private static boolean anyNode(LoopTemplate t, Class<?> kind) {
    return Nodes.postOrder(t.roots()).stream().anyMatch(kind::isInstance);
  }

  @Test
  void chainOfFourMapsBecomesOneKernelWithoutTemporaries() {
    ProgramSequence p = chain(1).check(false);
    assertEquals(1, p.kernels().size());
    KernelSpec k = p.kernels().get(0);
    assertArrayEquals(ids(0, 1, 2, 3), k.arrayIds());
    assertArrayEquals(ids(), p.materialized());
    assertEquals(1, k.template().stores().size());
    assertEquals(3, k.arrayIds()[k.template().stores().get(0).array()]);
    chain(1).assertRuns(p, new JvmKernelRunner());
  }

  @Test
  void consumerAtTheSameOffsetFusesButNotAtAnother() {
    assertEquals(1, producerConsumer(0).check(false).kernels().size());
    ProgramSequence p = producerConsumer(1).check(false);
    assertEquals(2, p.kernels().size());
    assertArrayEquals(ids(1), p.materialized());
  }

  @Test
  void loopOverwritingWhatTheGroupReadsElsewhereDoesNotFuse() {
    TestFlush f = new TestFlush(3, 100);
    int a = f.live(I), b = f.live(I), out = f.live(I);
    f.loop(map(II, store(1, bin(BinaryOp.MUL, new Load(0, I, at(1)), Const.ofInt(2)))), 0, 99, new long[0], new long[0], a, out);
    f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), 0, 99, new long[0], new long[0], b, a);
    assertEquals(2, f.check(false).kernels().size());
  }

  @Test
  void loopsOverDifferentRangesDoNotFuse() {
    for (int[] range : new int[][] {{0, 90}, {1, 99}}) {
      TestFlush f = new TestFlush(4, 100);
      int a = f.live(I), t = f.temp(I), out = f.live(I);
      f.loop(map(II, store(1, bin(BinaryOp.MUL, load(0, I), Const.ofInt(3)))), 0, 99, new long[0], new long[0], a, t);
      f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), range[0], range[1], new long[0], new long[0], t, out);
      ProgramSequence p = f.check(false);
      assertEquals(2, p.kernels().size());
      assertArrayEquals(ids(t), p.materialized());
    }
  }

  @Test
  void loopsSharingOneElementAcrossIterationsDoNotFuse() {
    TestFlush f = new TestFlush(14, 100);
    int a = f.live(I), t = f.temp(I), out = f.live(I);
    f.loop(map(II, new Store(1, I, Const.ofInt(0), load(0, I), Const.TRUE)), a, t);
    f.loop(map(List.of(I, I, I), store(2, bin(BinaryOp.ADD, new Load(0, I, Const.ofInt(0)), load(1, I)))), t, a, out);
    ProgramSequence p = f.check(false);
    assertEquals(2, p.kernels().size());
    assertArrayEquals(ids(t), p.materialized());
  }

  @Test
  void loopReadingBackItsOwnStoresKeepsThem() {
    TestFlush f = new TestFlush(15, 100);
    int a = f.live(I), t = f.temp(I), out = f.live(I);
    Node recurrence = bin(BinaryOp.ADD, load(0, I), load(1, I));
    f.loop(map(II, new Store(0, I, at(1), recurrence, Const.TRUE)), 0, 99, new long[0], new long[0], t, a);
    f.loop(map(II, store(1, new Load(0, I, at(1)))), 0, 99, new long[0], new long[0], t, out);
    ProgramSequence p = f.check(false);
    assertEquals(1, p.kernels().size());
    assertEquals(2, p.kernels().get(0).template().stores().size());
    assertArrayEquals(ids(t), p.materialized());
  }

  @Test
  void siblingMapsSharingAnInputFuse() {
    TestFlush f = new TestFlush(5, 100);
    int a = f.live(F), x = f.live(F), y = f.live(F);
    f.loop(map(FF, store(1, bin(BinaryOp.ADD, load(0, F), Const.ofFloat(1)))), a, x);
    f.loop(map(FF, store(1, bin(BinaryOp.MUL, load(0, F), Const.ofFloat(3)))), a, y);
    ProgramSequence p = f.check(false);
    assertEquals(1, p.kernels().size());
    assertArrayEquals(ids(a, x, y), p.kernels().get(0).arrayIds());
  }

  /** A map {@code m = a*2} into a live-out or temporary array, then a sum of {@code m} of type {@code t}. */
  private static TestFlush mapThenSum(Type t, boolean mapIntoTemporary) {
    TestFlush f = new TestFlush(6, 500);
    int a = f.live(t), m = mapIntoTemporary ? f.temp(t) : f.live(t);
    Node two = Const.ofBits(t, t == F ? Float.floatToRawIntBits(2f) : 2);
    f.loop(map(List.of(t, t), store(1, bin(BinaryOp.MUL, load(0, t), two))), a, m);
    Node e = load(0, t);
    Reduction sum = new Reduction(0, t, bin(BinaryOp.ADD, new Acc(0, t), e), ReduceOp.ADD, e);
    f.loop(reduce(List.of(t), List.of(), sum), 0, 500, new long[0], new long[] {f.randomBits(t)}, m);
    return f;
  }

  @Test
  void orderedFloatSumFusesOnlyWhenItSavesATemporary() {
    ProgramSequence intoTemporary = mapThenSum(F, true).check(false);
    assertEquals(1, intoTemporary.kernels().size());
    assertArrayEquals(ids(), intoTemporary.materialized());
    assertFalse(intoTemporary.kernels().get(0).template().isParallel(false));
    assertEquals(2, mapThenSum(F, false).check(false).kernels().size());
    assertEquals(1, mapThenSum(F, false).check(true).kernels().size());
  }

  @Test
  void integerSumFusesWithTheMapItReads() {
    ProgramSequence p = mapThenSum(I, false).check(false);
    assertEquals(1, p.kernels().size());
    assertTrue(p.kernels().get(0).template().isParallel(false));
  }

  @Test
  void parallelLoopDoesNotJoinAnOrderedSum() {
    TestFlush f = mapThenSum(F, true);
    int y = f.live(F);
    f.loop(map(FF, store(1, bin(BinaryOp.ADD, load(0, F), Const.ofFloat(1)))), 0, f.n(), new long[0], new long[0], 0, y);
    assertEquals(2, f.check(false).kernels().size());
  }

  @Test
  void predicatedProducerFusesThroughASelectOverTheUntouchedElement() {
    TestFlush f = new TestFlush(7, 300);
    int a = f.live(I), t = f.temp(I), out = f.live(I);
    Node positive = Compare.of(Cond.GT, load(0, I), Const.ofInt(0));
    Store guarded = new Store(1, I, Index.I, bin(BinaryOp.MUL, load(0, I), Const.ofInt(3)), positive);
    f.loop(map(II, guarded), a, t);
    f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), t, out);
    ProgramSequence p = f.check(false);
    assertEquals(1, p.kernels().size());
    assertTrue(anyNode(p.kernels().get(0).template(), Select.class));
    assertArrayEquals(ids(t), p.materialized());
  }

  @Test
  void narrowTemporariesReadBackTruncatedAsAStoreWould() {
    for (Type narrow : List.of(Type.BYTE, Type.SHORT, Type.CHAR, Type.BOOLEAN)) {
      TestFlush f = new TestFlush(8, 400);
      int a = f.live(I), t = f.temp(narrow), out = f.live(I);
      f.loop(map(List.of(I, narrow), store(1, narrow, bin(BinaryOp.MUL, load(0, I), Const.ofInt(37)))), a, t);
      f.loop(map(List.of(narrow, I), store(1, I, bin(BinaryOp.ADD, load(0, narrow), Const.ofInt(1)))), t, out);
      ProgramSequence p = f.check(false);
      assertEquals(1, p.kernels().size(), narrow.name());
      assertArrayEquals(ids(), p.materialized(), narrow.name());
    }
  }

  @Test
  void loopsWritingOnlyUnreadTemporariesAreEliminated() {
    TestFlush f = new TestFlush(9, 100);
    int a = f.live(I), out = f.live(I), t = f.temp(I), u = f.temp(I);
    f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), a, out);
    f.loop(map(II, store(1, bin(BinaryOp.MUL, load(0, I), Const.ofInt(2)))), a, t);
    f.loop(map(II, store(1, bin(BinaryOp.SUB, load(0, I), Const.ofInt(2)))), t, u);
    ProgramSequence p = f.check(false);
    assertArrayEquals(ids(1, 2), p.eliminatedLoops());
    assertEquals(1, p.kernels().size());
    assertArrayEquals(ids(0), p.kernels().get(0).loops());
    assertArrayEquals(ids(), p.materialized());
  }

  @Test
  void temporaryReadBeforeItIsWrittenIsMaterializedAsZeros() {
    TestFlush f = new TestFlush(10, 100);
    int a = f.live(I), t = f.temp(I), early = f.live(I), late = f.live(I);
    f.loop(map(List.of(I, I, I), store(2, bin(BinaryOp.ADD, load(0, I), load(1, I)))), t, a, early);
    f.loop(map(II, store(1, bin(BinaryOp.MUL, load(0, I), Const.ofInt(2)))), a, t);
    f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), t, late);
    ProgramSequence p = f.check(false);
    assertEquals(1, p.kernels().size());
    assertArrayEquals(ids(t), p.materialized());
    assertTrue(p.kernels().get(0).template().stores().stream().noneMatch(s -> p.kernels().get(0).arrayIds()[s.array()] == t));
  }

  @Test
  void longChainSplitsIntoKernelsWithinTheArrayLimit() {
    TestFlush f = new TestFlush(11, 64);
    int first = f.live(I);
    for (int k = 1; k < 30; k++) {
      int next = f.live(I);
      f.loop(map(II, store(1, bin(BinaryOp.ADD, load(0, I), Const.ofInt(k)))), next - 1, next);
    }
    ProgramSequence p = f.check(false);
    assertEquals(0, first);
    assertTrue(p.kernels().size() > 1);
    for (KernelSpec k : p.kernels()) assertTrue(k.arrayIds().length <= SchedulingPass.MAX_ARRAYS, Arrays.toString(k.arrayIds()));
  }

  @Test
  void largeBodiesSplitWithinTheNodeLimit() {
    TestFlush f = new TestFlush(12, 64);
    int a = f.live(I);
    for (int k = 0; k < 6; k++) {
      Node e = load(0, I);
      for (int term = 0; term < 60; term++) e = bin(BinaryOp.XOR, bin(BinaryOp.MUL, e, Const.ofInt(31 + k)), Const.ofInt(term));
      f.loop(map(II, store(1, e)), a, f.live(I));
    }
    ProgramSequence p = f.check(false);
    assertTrue(p.kernels().size() > 1);
    for (KernelSpec k : p.kernels()) assertTrue(Nodes.postOrder(k.template().roots()).size() <= SchedulingPass.MAX_NODES);
  }

  @Test
  void programDependsOnlyOnTheFlushShape() {
    assertEquals(ProgGen.compile(chain(1).flush(), false), ProgGen.compile(chain(2).flush(), false));
    assertEquals(ProgGen.compile(chain(1).flush(), false).kernels().get(0).template(),
        ProgGen.compile(chain(1).flush(), false).kernels().get(0).template());
    ProgramSequence cached = null;
    for (int[] range : new int[][] {{0, 100}, {3, 90}}) {
      TestFlush f = new TestFlush(13, 100);
      int a = f.live(I), t = f.temp(I), out = f.live(I);
      Node scaled = bin(BinaryOp.MUL, load(0, I), new Param(0, I));
      LoopTemplate scale = new LoopTemplate(II, List.of(I), List.of(), List.of(store(1, scaled)), List.of());
      f.loop(scale, range[0], range[1], new long[] {range[0] + 7}, new long[0], a, t);
      f.loop(scale, range[0], range[1], new long[] {-range[0] - 2}, new long[0], t, out);
      ProgramSequence p = ProgGen.compile(f.flush(), false);
      if (cached != null) assertEquals(cached, p);
      cached = p;
      f.assertRuns(cached, Interpreter::run);
      f.setParams(1, 12345);
      f.assertRuns(cached, Interpreter::run);
    }
    assertEquals(1, cached.kernels().size());
  }
}
