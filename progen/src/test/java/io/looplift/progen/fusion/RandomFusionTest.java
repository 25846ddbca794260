package io.looplift.progen.fusion;

import static io.looplift.progen.fusion.TestFlush.at;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Random chains of small loops over shared arrays: the compiled program must compute what the loops compute. */
class RandomFusionTest {
  private static final int SEEDS = 1500;
  private static final BinaryOp[] INT_OPS = {BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.XOR, BinaryOp.MAX};
  private static final BinaryOp[] FLOAT_OPS = {BinaryOp.ADD, BinaryOp.SUB, BinaryOp.MUL, BinaryOp.MIN};

  @Test
  void fusedProgramsMatchTheUnfusedLoops() {
    JvmKernelRunner jvm = new JvmKernelRunner();
    int fusedLoops = 0;
    int forwardedTemporaries = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      TestFlush f = randomFlush(seed);
      boolean reassociate = seed % 3 == 0;
      ProgramSequence p;
      try {
        p = f.check(reassociate);
        if (seed % 4 == 0) f.assertRuns(p, jvm);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ": " + f.flush() + "\n" + ProgGen.compile(f.flush(), reassociate), e);
      }
      assertWithinLimitsAndWithoutUnreadStores(f.flush(), p);
      for (KernelSpec k : p.kernels()) fusedLoops += k.loops().length - 1;
      forwardedTemporaries += unmaterializedTemporariesWritten(f.flush(), p);
    }
    // The generator must actually exercise fusion, or the comparison above proves little.
    assertTrue(fusedLoops > SEEDS / 2, "fused loops: " + fusedLoops);
    assertTrue(forwardedTemporaries > SEEDS / 10, "temporaries kept in registers: " + forwardedTemporaries);
  }

  private static void assertWithinLimitsAndWithoutUnreadStores(Flush flush, ProgramSequence p) {
    Set<Integer> loadedLater = new HashSet<>();
    for (int k = p.kernels().size() - 1; k >= 0; k--) {
      KernelSpec kernel = p.kernels().get(k);
      assertTrue(kernel.arrayIds().length <= SchedulingPass.MAX_ARRAYS);
      Set<Integer> loaded = Accesses.of(kernel.template()).loaded();
      for (Store s : kernel.template().stores()) {
        int id = kernel.arrayIds()[s.array()];
        boolean read = loadedLater.contains(id) || loaded.contains(s.array());
        assertTrue(!flush.isTemporary(id) || read, "dead store to " + id + " in kernel " + k + " of " + p);
      }
      for (int slot : loaded) loadedLater.add(kernel.arrayIds()[slot]);
    }
  }

  /** Temporaries some live loop writes that got no storage: their values lived in registers only. */
  private static int unmaterializedTemporariesWritten(Flush flush, ProgramSequence p) {
    Set<Integer> written = new HashSet<>();
    for (KernelSpec k : p.kernels()) {
      for (int loop : k.loops()) written.addAll(flush.loops().get(loop).storedArrays());
    }
    for (int id : p.materialized()) written.remove(id);
    written.removeIf(id -> !flush.isTemporary(id));
    return written.size();
  }

  private static TestFlush randomFlush(long seed) {
    Random r = new Random(seed);
    int n = 8 + r.nextInt(24);
    TestFlush f = new TestFlush(seed, n);
    Type[] types = Type.values();
    int arrays = 4 + r.nextInt(3);
    List<Integer> ids = new ArrayList<>();
    for (int a = 0; a < arrays; a++) {
      Type t = r.nextBoolean() ? Type.INT : r.nextBoolean() ? Type.FLOAT : types[r.nextInt(types.length)];
      ids.add(r.nextInt(5) < 2 ? f.temp(t) : f.live(t));
    }
    int loops = 2 + r.nextInt(5);
    for (int l = 0; l < loops; l++) {
      Collections.shuffle(ids, r);
      int[] bound = ids.subList(0, 2 + r.nextInt(3)).stream().mapToInt(Integer::intValue).toArray();
      List<Type> slotTypes = new ArrayList<>();
      for (int id : bound) slotTypes.add(f.flush().arrays().get(id).elementType());
      LoopTemplate t = new LoopGenerator(r, slotTypes).template();
      long[] accs = new long[t.accumulators().size()];
      for (int j = 0; j < accs.length; j++) accs[j] = f.randomBits(t.accumulators().get(j));
      boolean shifted = r.nextInt(5) == 0;
      f.loop(t, shifted ? 1 : 0, shifted ? n - 2 : n - 1, new long[] {r.nextInt(21) - 10}, accs, bound);
    }
    return f;
  }

  /** One random loop body over arrays of the given types, with one INT parameter. */
  private static final class LoopGenerator {
    private final Random r;
    private final List<Type> slots;

    LoopGenerator(Random r, List<Type> slots) {
      this.r = r;
      this.slots = slots;
    }

    LoopTemplate template() {
      List<Store> stores = new ArrayList<>();
      int storeCount = 1 + r.nextInt(2);
      for (int s = 0; s < storeCount; s++) {
        int slot = r.nextInt(slots.size());
        Type t = slots.get(slot);
        Node predicate = r.nextInt(3) == 0 ? cond(1) : Const.TRUE;
        stores.add(new Store(slot, t, index(), value(t, 2), predicate));
      }
      List<Reduction> reductions = new ArrayList<>();
      if (r.nextInt(4) == 0) reductions.add(reduction());
      if (!reductions.isEmpty() && r.nextBoolean()) stores.clear();
      List<Type> accs = reductions.isEmpty() ? List.of() : List.of(reductions.get(0).type());
      return new LoopTemplate(slots, List.of(Type.INT), accs, stores, reductions);
    }

    private Reduction reduction() {
      boolean floating = r.nextBoolean();
      Type t = floating ? Type.FLOAT : Type.INT;
      ReduceOp op = floating || r.nextBoolean() ? ReduceOp.ADD : ReduceOp.MAX;
      Node e = floating ? floatExpr(2) : intExpr(2);
      Node update = Binary.of(op == ReduceOp.ADD ? BinaryOp.ADD : BinaryOp.MAX, new Acc(0, t), e);
      return new Reduction(0, t, update, op, e);
    }

    private Node value(Type element, int depth) {
      return switch (element.stackType()) {
        case INT -> intExpr(depth);
        case LONG -> Convert.of(intExpr(depth), Type.LONG);
        case FLOAT -> floatExpr(depth);
        default -> Convert.of(floatExpr(depth), Type.DOUBLE);
      };
    }

    private Node intExpr(int depth) {
      switch (r.nextInt(depth <= 0 ? 3 : 6)) {
        case 0: return r.nextBoolean() ? Const.ofInt(r.nextInt(21) - 10) : new Param(0, Type.INT);
        case 1: return r.nextInt(4) == 0 ? Index.I : toInt(load());
        case 2: return toInt(load());
        case 3: return Binary.of(INT_OPS[r.nextInt(INT_OPS.length)], intExpr(depth - 1), intExpr(depth - 1));
        case 4: return Convert.of(floatExpr(depth - 1), Type.INT);
        default: return Select.of(cond(depth - 1), intExpr(depth - 1), intExpr(depth - 1));
      }
    }

    private Node floatExpr(int depth) {
      switch (r.nextInt(depth <= 0 ? 2 : 4)) {
        case 0: return r.nextBoolean() ? Const.ofFloat((float) r.nextGaussian()) : toFloat(load());
        case 1: return toFloat(load());
        case 2: return Binary.of(FLOAT_OPS[r.nextInt(FLOAT_OPS.length)], floatExpr(depth - 1), floatExpr(depth - 1));
        default: return Convert.of(intExpr(depth - 1), Type.FLOAT);
      }
    }

    private Node cond(int depth) {
      Cond[] conds = Cond.values();
      return Compare.of(conds[r.nextInt(conds.length)], intExpr(depth), intExpr(depth));
    }

    private Node load() {
      int slot = r.nextInt(slots.size());
      return new Load(slot, slots.get(slot), index());
    }

    /** Mostly {@code i}; sometimes {@code i+1} or element 0 in every iteration. */
    private Node index() {
      int pick = r.nextInt(8);
      return pick == 0 ? Const.ofInt(0) : at(pick < 3 ? 1 : 0);
    }

    private static Node toInt(Node x) {
      return Convert.of(x, Type.INT);
    }

    private static Node toFloat(Node x) {
      return Convert.of(x, Type.FLOAT);
    }
  }
}
