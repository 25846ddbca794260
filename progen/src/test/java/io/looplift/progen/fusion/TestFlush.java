package io.looplift.progen.fusion;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Evaluator;
import io.looplift.ir.Index;
import io.looplift.ir.Interpreter;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A flush under construction with its data: arrays of {@code n} elements (random contents for live-out
 * arrays, zeros for temporaries), queued loops and their scalars; plus small template builders.
 */
final class TestFlush {
  private final Random random;
  private final int n;
  private final List<FlushArray> arrays = new ArrayList<>();
  private final List<Object> data = new ArrayList<>();
  private final List<QueuedLoop> loops = new ArrayList<>();
  private final List<long[]> params = new ArrayList<>();
  private final List<long[]> accs = new ArrayList<>();

  TestFlush(long seed, int n) {
    this.random = new Random(seed);
    this.n = n;
  }

  /** Adds a live-out array with random contents; returns its id. */
  int live(Type t) { return array(t, true); }

  /** Adds a temporary; returns its id. */
  int temp(Type t) { return array(t, false); }

  private int array(Type t, boolean liveOut) {
    Object a = Array.newInstance(javaType(t), n);
    for (int i = 0; liveOut && i < n; i++) Evaluator.store(a, t, i, randomBits(t));
    arrays.add(new FlushArray(t, liveOut));
    data.add(a);
    return arrays.size() - 1;
  }

  /** Queues {@code t} over all {@code n} indices, without scalars, its slots bound to arrays {@code ids}. */
  TestFlush loop(LoopTemplate t, int... ids) {
    return loop(t, 0, n, new long[0], new long[0], ids);
  }

  /** Queues {@code t} over {@code i = start .. start+trips-1} with the given scalars. */
  TestFlush loop(LoopTemplate t, int start, int trips, long[] loopParams, long[] initialAccs, int... ids) {
    loops.add(new QueuedLoop(loops.size(), t, ids, start, 1, trips));
    params.add(loopParams);
    accs.add(initialAccs);
    return this;
  }

  Flush flush() { return new Flush(loops, arrays); }

  /** Compiles the flush, asserts the program computes what the unfused loops compute, and returns it. */
  ProgramSequence check(boolean reassociate) {
    return check(reassociate, Interpreter::run);
  }

  /** As {@link #check(boolean)}, running the kernels with {@code runner}. */
  ProgramSequence check(boolean reassociate, FlushHarness.KernelRunner runner) {
    ProgramSequence program = ProgGen.compile(flush(), reassociate);
    assertRuns(program, runner);
    return program;
  }

  /** Asserts {@code program} computes what the unfused loops compute on this flush's data and scalars. */
  void assertRuns(ProgramSequence program, FlushHarness.KernelRunner runner) {
    Flush flush = flush();
    Object[] inputs = data.toArray();
    FlushHarness.assertSameObservable(flush, FlushHarness.unfused(flush, inputs, params, accs),
        FlushHarness.fused(program, flush, inputs, params, accs, runner));
  }

  /** Replaces the parameters of loop {@code loop}. */
  void setParams(int loop, long... values) { params.set(loop, values); }

  int n() { return n; }

  /** Random raw bits of element type {@code t}: wide for integers, so narrowing matters. */
  long randomBits(Type t) {
    return switch (t) {
      case BOOLEAN -> random.nextInt(2);
      case BYTE, SHORT, CHAR, INT -> random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(201) - 100;
      case LONG -> random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(201) - 100;
      case FLOAT -> Float.floatToRawIntBits((float) (random.nextGaussian() * 10));
      case DOUBLE -> Double.doubleToRawLongBits(random.nextGaussian() * 10);
    };
  }

  private static Class<?> javaType(Type t) {
    return switch (t) {
      case BOOLEAN -> boolean.class;
      case BYTE -> byte.class;
      case CHAR -> char.class;
      case SHORT -> short.class;
      case INT -> int.class;
      case LONG -> long.class;
      case FLOAT -> float.class;
      case DOUBLE -> double.class;
    };
  }

  /** {@code i + offset}. */
  static Node at(int offset) {
    return Binary.of(BinaryOp.ADD, Index.I, Const.ofInt(offset));
  }

  /** {@code arrays[slot][i]}. */
  static Node load(int slot, Type t) { return new Load(slot, t, Index.I); }

  /** An unconditional store of {@code value} to {@code arrays[slot][i]}, an array of the value's type. */
  static Store store(int slot, Node value) { return store(slot, value.type(), value); }

  /** An unconditional store of {@code value} to {@code arrays[slot][i]}. */
  static Store store(int slot, Type t, Node value) { return new Store(slot, t, Index.I, value, Const.TRUE); }

  /** A template over arrays of {@code types} with {@code stores} and no scalars. */
  static LoopTemplate map(List<Type> types, Store... stores) {
    return new LoopTemplate(types, List.of(), List.of(), List.of(stores), List.of());
  }

  /** A template over arrays of {@code types} with {@code stores} and {@code reductions}, one accumulator each. */
  static LoopTemplate reduce(List<Type> types, List<Store> stores, Reduction... reductions) {
    List<Type> accTypes = new ArrayList<>();
    for (Reduction r : reductions) accTypes.add(r.type());
    return new LoopTemplate(types, List.of(), accTypes, stores, List.of(reductions));
  }
}
