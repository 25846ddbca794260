package io.looplift.progen.fusion;

import static io.looplift.progen.fusion.TestFlush.load;
import static io.looplift.progen.fusion.TestFlush.map;
import static io.looplift.progen.fusion.TestFlush.reduce;
import static io.looplift.progen.fusion.TestFlush.store;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Type;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackwardPassTest {
  private static final Type I = Type.INT;
  private static final List<Type> II = List.of(I, I);

  /**
   * Arrays a (0), out (3) live-out; t (1), u (2), v (4) temporaries. Loops: t = a*2; u = a+1; out = t+a;
   * v = out*2; sum over u.
   */
  static Flush smallFlush() {
    TestFlush f = new TestFlush(1, 10);
    int a = f.live(I), t = f.temp(I), u = f.temp(I), out = f.live(I), v = f.temp(I);
    f.loop(map(II, store(1, Binary.of(BinaryOp.MUL, load(0, I), Const.ofInt(2)))), a, t);
    f.loop(map(II, store(1, Binary.of(BinaryOp.ADD, load(0, I), Const.ofInt(1)))), a, u);
    f.loop(map(List.of(I, I, I), store(2, Binary.of(BinaryOp.ADD, load(0, I), load(1, I)))), t, a, out);
    f.loop(map(II, store(1, Binary.of(BinaryOp.MUL, load(0, I), Const.ofInt(2)))), out, v);
    Node e = load(0, I);
    f.loop(reduce(List.of(I), List.of(), new Reduction(0, I, Binary.of(BinaryOp.ADD, new Acc(0, I), e), ReduceOp.ADD, e)),
        0, 10, new long[0], new long[] {0}, u);
    return f.flush();
  }

  @Test
  void temporariesLiveUntilTheirLastReaderAndUnreadResultsAreDead() {
    List<LoopLiveness> liveness = BackwardPass.run(smallFlush());
    assertEquals(List.of(
        new LoopLiveness(Set.of(0, 1, 2, 3), false),
        new LoopLiveness(Set.of(0, 1, 2, 3), false),
        new LoopLiveness(Set.of(0, 2, 3), false),
        new LoopLiveness(Set.of(0, 2, 3), true),
        new LoopLiveness(Set.of(0, 3), false)), liveness);
  }

  @Test
  void deadnessCascadesToTheProducersOfDeadLoops() {
    TestFlush f = new TestFlush(2, 10);
    int a = f.live(I), t = f.temp(I), u = f.temp(I);
    f.loop(map(II, store(1, load(0, I))), a, t);
    f.loop(map(II, store(1, load(0, I))), t, u);
    assertEquals(List.of(new LoopLiveness(Set.of(0), true), new LoopLiveness(Set.of(0), true)), BackwardPass.run(f.flush()));
  }
}
