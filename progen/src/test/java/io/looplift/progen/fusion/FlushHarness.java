package io.looplift.progen.fusion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.looplift.ir.Evaluator;
import io.looplift.ir.Interpreter;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Runs a flush two ways: unfused, each queued loop in order with every temporary allocated zeroed (the
 * oracle), and through its compiled program, with only the materialized temporaries allocated. Then
 * compares what the program can observe: live-out arrays and accumulators, bit for bit.
 */
final class FlushHarness {
  private FlushHarness() {}

  /** Runs one launch of a template; {@code Interpreter::run} is one. */
  interface KernelRunner {
    void run(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int trips);
  }

  /** The state after a flush: arrays by id (null for a temporary without storage) and accumulators by loop. */
  record State(Object[] arrays, List<long[]> accs) {}

  /**
   * Runs each loop of {@code flush} in order. {@code inputs} holds every array by id; a temporary's entry
   * only gives its length. Nothing passed in is modified.
   */
  static State unfused(Flush flush, Object[] inputs, List<long[]> params, List<long[]> accs) {
    State s = new State(allocate(flush, inputs, id -> true), copy(accs));
    for (int l = 0; l < flush.loops().size(); l++) {
      QueuedLoop q = flush.loops().get(l);
      Object[] arrays = Arrays.stream(q.arrayIds()).mapToObj(id -> s.arrays()[id]).toArray();
      Interpreter.run(q.template(), arrays, params.get(l), s.accs().get(l), q.start(), q.step(), q.trips());
    }
    return s;
  }

  /** Runs {@code program}'s kernels in order with {@code runner}; arguments as for {@link #unfused}. */
  static State fused(ProgramSequence program, Flush flush, Object[] inputs, List<long[]> params, List<long[]> accs,
      KernelRunner runner) {
    State s = new State(allocate(flush, inputs, id -> Arrays.stream(program.materialized()).anyMatch(m -> m == id)), copy(accs));
    for (KernelSpec k : program.kernels()) {
      QueuedLoop range = flush.loops().get(k.rangeLoop());
      long[] kernelAccs = k.bindAccumulators(s.accs());
      runner.run(k.template(), k.bindArrays(s.arrays()), k.bindParams(params), kernelAccs, range.start(), range.step(), range.trips());
      k.scatterAccumulators(kernelAccs, s.accs());
    }
    return s;
  }

  /** Asserts that both states agree on every live-out array and every accumulator. */
  static void assertSameObservable(Flush flush, State expected, State actual) {
    for (int id = 0; id < flush.arrays().size(); id++) {
      if (flush.isTemporary(id)) continue;
      Object e = expected.arrays()[id];
      Object a = actual.arrays()[id];
      Type type = flush.arrays().get(id).elementType();
      for (int i = 0; i < Array.getLength(e); i++) {
        assertEquals(Evaluator.load(e, type, i), Evaluator.load(a, type, i), "array " + id + " element " + i);
      }
    }
    for (int l = 0; l < expected.accs().size(); l++) {
      assertArrayEquals(expected.accs().get(l), actual.accs().get(l), "accumulators of loop " + l);
    }
  }

  private static Object[] allocate(Flush flush, Object[] inputs, IntPredicate temporaryHasStorage) {
    Object[] arrays = new Object[inputs.length];
    for (int id = 0; id < inputs.length; id++) {
      Object in = inputs[id];
      int length = Array.getLength(in);
      if (!flush.isTemporary(id)) {
        arrays[id] = Array.newInstance(in.getClass().getComponentType(), length);
        System.arraycopy(in, 0, arrays[id], 0, length);
      } else if (temporaryHasStorage.test(id)) {
        arrays[id] = Array.newInstance(in.getClass().getComponentType(), length);
      }
    }
    return arrays;
  }

  private static List<long[]> copy(List<long[]> values) {
    List<long[]> copies = new ArrayList<>();
    for (long[] v : values) copies.add(v.clone());
    return copies;
  }
}
