package io.looplift.analyzer;

import io.looplift.ir.Affine;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Stmt;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Executes a loop nested in the body being walked as one {@link Loop} statement of that body. The loop must
 * be counted (its head tests an int variable against a limit the loop does not change, the variable moves
 * by a constant step, and the head is its only exit); its body is walked once with the variable as
 * {@link LoopVar} and every local the loop changes as a {@link CarriedVar} placeholder, inner loops in it
 * in turn; the locals whose value flows from one iteration to the next become its {@link Carried} values,
 * and the enclosing path continues at the loop's exit with them as {@link LoopOut}s. A loop always starts
 * and ends a segment of the enclosing body (see {@link io.looplift.ir.Stmt}). Single use.
 */
final class InnerLoop {
  private final MethodContext m;
  private final SymInterpreter sym;
  private final Cfg.Loop loop;
  private final LoopBody body;

  InnerLoop(MethodContext m, SymInterpreter sym, Cfg.Loop loop) {
    this.m = m;
    this.sym = sym;
    this.loop = loop;
    this.body = sym.body();
  }

  /** Executes the loop on the path {@code outer} reaches its head with; returns the path leaving it, by exit block. */
  Map<Cfg.Block, SymFrame> run(SymFrame outer) {
    Cfg.Block header = loop.header;
    AbstractInsnNode test = m.insns[header.end - 1];
    if (!(test instanceof JumpInsnNode jump) || jump.getOpcode() == Opcodes.GOTO
        || jump.getOpcode() == Opcodes.IFNULL || jump.getOpcode() == Opcodes.IFNONNULL) {
      throw new Rejection("has an inner loop that is not counted (no exit test at its head)");
    }
    Cfg.Block exit = m.exitOf(loop, "an inner loop ");
    for (TryCatchBlockNode tcb : m.method.tryCatchBlocks) {
      if (loop.contains(m.cfg.blockOf(m.method.instructions.indexOf(tcb.handler)))) {
        throw new Rejection("has an inner loop with a try/catch block");
      }
    }
    if (outer.getStackSize() != 0) throw new Rejection("keeps values on the operand stack around an inner loop");
    Frame<BasicValue> types = m.frames[header.start];
    if (types == null) throw new Rejection("has an unreachable inner loop");
    BitSet written = m.writtenLocals(loop);
    boolean continueOnJump = loop.contains(m.cfg.blockOf(m.method.instructions.indexOf(jump.label)));
    int id = body.newLoopId();
    BlockWalker walker = new BlockWalker(m, sym);

    // Which local the exit test compares with a limit the loop does not change.
    SymFrame probe = iterationStart(outer, written, types, id, -1);
    walker.execute(header, probe);
    SymValue[] probed = probe.popCompared(jump);
    int ivar = -1;
    int headerStep = 0;
    boolean comparedBeforeMove = false;
    boolean ivarLeft = false;
    // A test of the variable plus an invariant (j + 4 <= n): the loop counts that sum instead (see testOffset).
    Node testOffset = null;
    for (int side = 0; side < 2; side++) {
      if (!probed[side].isPrimitive() || !probed[1 - side].isPrimitive() || mentions(probed[1 - side].node(), id)) {
        continue;
      }
      if (probed[side].node() instanceof CarriedVar c && c.loop() == id && c.type() == io.looplift.ir.Type.INT) {
        ivar = c.slot();
        ivarLeft = side == 0;
        headerStep = LoopAnalyzer.movedAfterTest(c, probe.getLocal(ivar));
        comparedBeforeMove = headerStep != 0;
        testOffset = null;
        continue;
      }
      ToIntFunction<Node> slot = x -> x instanceof CarriedVar c && c.loop() == id ? c.slot() : -1;
      LoopAnalyzer.MovedInTest moved = LoopAnalyzer.movedInTest(probed[side], probe, slot);
      LoopAnalyzer.OffsetInTest offset = moved == null ? LoopAnalyzer.offsetInTest(probed[side].node(), probe, slot)
          : null;
      if (offset != null && mentions(offset.by(), id)) offset = null;
      if (moved == null && offset == null) continue;
      ivar = moved != null ? moved.local() : offset.local();
      ivarLeft = side == 0;
      headerStep = moved != null ? moved.by() : 0;
      comparedBeforeMove = false;
      testOffset = offset == null ? null : offset.by();
    }
    if (ivar < 0) {
      throw new Rejection("has an inner loop that is not counted (its exit test does not compare an int variable"
          + " with a limit the loop does not change)");
    }
    Cond cond = BlockWalker.jumpCond(jump);
    if (!continueOnJump) cond = cond.negate();
    if (!ivarLeft) cond = cond.mirror();

    SymValue startValue = outer.getLocal(ivar);
    if (!startValue.isPrimitive()) throw new Rejection("has an inner loop whose variable is not set before it");
    // A test that moves the variable first (--k >= 0): the first iteration sees the value moved once.
    Node start = headerStep == 0 ? startValue.node()
        : sym.n(Binary.of(BinaryOp.ADD, startValue.node(), Const.ofInt(headerStep)));
    // With a test offset, LoopVar counts the variable plus the offset, from its start plus the offset to the
    // limit as the test states it; the variable in the body is LoopVar minus the offset. Java adds in wrapping
    // arithmetic, but the guards keep the start and the value after the last iteration of what LoopVar counts
    // within the int range (LoopShape.trips), and with them every sum the original test computes.
    if (testOffset != null) start = sym.n(Binary.of(BinaryOp.ADD, start, testOffset));
    int entryEpoch = outer.epoch();
    SymFrame initial = iterationStart(outer, written, types, id, ivar);
    SymValue loopVar = initial.getLocal(ivar);
    Node shifted = testOffset == null ? null : sym.n(Binary.of(BinaryOp.SUB, loopVar.node(), testOffset));
    if (shifted != null) initial.setLocal(ivar, SymValue.primitive(shifted, null));
    if (headerStep != 0) {
      initial.setLocal(ivar, SymValue.primitive(sym.n(Binary.of(BinaryOp.SUB, loopVar.node(), Const.ofInt(headerStep))), null));
    }
    SymFrame s = initial.copy();
    int storesBefore = body.storeCount();
    walker.execute(header, s);
    Node limit = s.popCompared(jump)[ivarLeft ? 1 : 0].node();
    if (comparedBeforeMove) limit = movedLimit(limit, headerStep);
    SymFrame expected = initial;
    if (headerStep != 0) {
      Affine moved = s.getLocal(ivar).isPrimitive() ? Affine.of(s.getLocal(ivar).node()) : null;
      if (moved == null || moved.coefficients().size() != 1 || !moved.coefficient(loopVar.node()).equals(Const.ofInt(1))
          || !moved.constant().equals(Const.ofInt(0))) {
        throw new Rejection("assigns variables or array elements in the condition of an inner loop");
      }
      s.setLocal(ivar, loopVar);
      expected = initial.copy();
      expected.setLocal(ivar, loopVar);
    }
    if (body.storeCount() != storesBefore || !s.sameLocals(expected)) {
      throw new Rejection("assigns variables or array elements in the condition of an inner loop");
    }
    start = bound(start, "start");
    limit = bound(limit, "limit");

    Cfg.Block first = m.cfg.blockOf(continueOnJump ? m.method.instructions.indexOf(jump.label) : header.end);
    body.openLoop();
    List<SymFrame> back;
    // The loop's other induction variables, by local: what each iteration adds (empty when none is needed).
    Map<Integer, Node> increments = Map.of();
    try {
      back = iteration(walker, first, s);
    } catch (Rejection r) {
      // Again with the loop's other induction variables as functions of its variable, if it has any.
      body.closeLoop();
      if (!body.notAffine) throw r;
      Inductions found = inductions(walker, first, s, written, ivar, id, cond, headerStep, shifted);
      increments = found.increments();
      increments.keySet().removeIf(k -> !outer.getLocal(k).isPrimitive());
      if (increments.isEmpty()) throw r;
      // The loop steps by one: done is the number of iterations before this one.
      Node done = Binary.of(BinaryOp.SUB, new LoopVar(id), start);
      if (found.step() < 0) done = Unary.of(UnaryOp.NEG, done);
      SymFrame closed = s.copy();
      for (Map.Entry<Integer, Node> e : increments.entrySet()) {
        Node value = Binary.of(BinaryOp.ADD, outer.getLocal(e.getKey()).node(), Binary.of(BinaryOp.MUL, done, e.getValue()));
        closed.setLocal(e.getKey(), SymValue.primitive(sym.n(value), null));
      }
      body.openLoop();
      back = iteration(walker, first, closed);
    }
    List<Stmt> stmts = body.closeLoop();
    if (back.isEmpty()) throw new Rejection("has an inner loop that never repeats");
    SymFrame end = SymFrame.join(back, sym);
    int step = step(counted(end.getLocal(ivar), shifted, id), id, cond, headerStep);

    // The locals whose value at the start of an iteration is read: those the loop carries.
    Map<Integer, Node> finals = new HashMap<>();
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      if (k == ivar) continue;
      SymValue v = end.getLocal(k);
      finals.put(k, v.isPrimitive() ? v.node() : null);
    }
    BitSet carried = new BitSet();
    for (Node n : body.nodes(stmts)) markPlaceholders(carried, n, id);
    finals.forEach((k, f) -> {
      if (f != null && Nodes.anyMatch(f, x -> x instanceof CarriedVar c && c.loop() == id && c.slot() == k)) carried.set(k);
    });
    boolean grew = true;
    while (grew) {
      int before = carried.cardinality();
      for (int k = carried.nextSetBit(0); k >= 0; k = carried.nextSetBit(k + 1)) {
        Node f = finals.get(k);
        if (f == null) throw new Rejection("carries a value of changing type across the iterations of an inner loop");
        markPlaceholders(carried, f, id);
      }
      grew = carried.cardinality() != before;
    }
    // The locals read after the loop that it moves by the same amount in every iteration: their values after
    // it in closed form, so that a loop around can see them move by the same amount in each of its iterations.
    BitSet live = Liveness.liveAtEntry(m, exit);
    Map<Integer, Node> leftAt = new HashMap<>();
    Node trips = trips(start, limit, cond, step);
    if (live.get(ivar)) {
      if (trips == null) throw new Rejection("uses the variable of an inner loop after it (" + localName(ivar) + ")");
      // The variable ends at the first value its test rejects, less the test's offset.
      Node rejected = Binary.of(BinaryOp.ADD, start, Binary.of(BinaryOp.MUL, trips, Const.ofInt(step)));
      leftAt.put(ivar, testOffset == null ? rejected : Binary.of(BinaryOp.SUB, rejected, testOffset));
    }
    for (Integer k : finals.keySet()) {
      if (!live.get(k)) continue;
      Node increment = increments.containsKey(k) ? increments.get(k) : incrementPerIteration(finals.get(k), k, id);
      SymValue init = outer.getLocal(k);
      if (trips != null && increment != null && init.isPrimitive() && !Nodes.anyMatch(init.node(), x -> x instanceof Load)) {
        leftAt.put(k, Binary.of(BinaryOp.ADD, init.node(), Binary.of(BinaryOp.MUL, trips, increment)));
      } else if (!carried.get(k)) {
        throw new Rejection("local variable " + localName(k) + " is assigned in an inner loop and used after it");
      }
    }

    // Carried values numbered in local order; the placeholders become slot numbers.
    List<Integer> locals = new ArrayList<>();
    for (int k = carried.nextSetBit(0); k >= 0; k = carried.nextSetBit(k + 1)) locals.add(k);
    Map<Node, Node> slotOf = new HashMap<>();
    for (int slot = 0; slot < locals.size(); slot++) {
      io.looplift.ir.Type t = finals.get(locals.get(slot)).type();
      slotOf.put(new CarriedVar(id, locals.get(slot), t), new CarriedVar(id, slot, t));
    }
    List<Carried> values = new ArrayList<>();
    for (int k : locals) {
      Node update = Nodes.rewrite(finals.get(k), x -> slotOf.getOrDefault(x, x));
      SymValue init = outer.getLocal(k);
      if (!init.isPrimitive() || init.node().type() != update.type()) {
        throw new Rejection("reads local variable " + localName(k) + " in an inner loop before it is assigned");
      }
      values.add(new Carried(update.type(), init.node(), update));
    }
    Loop l = new Loop(id, start, limit, cond, step, values,
        body.rewrite(stmts, x -> slotOf.getOrDefault(x, x)), outer.condition(), false);
    body.add(l, entryEpoch);
    body.updateEpochs.put(id, end.epoch());
    body.loopVariables.put(id, m.localName(ivar));

    SymFrame after = outer.copy();
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      int slot = locals.indexOf(k);
      after.setLocal(k, leftAt.containsKey(k) ? SymValue.primitive(sym.n(leftAt.get(k)), null)
          : slot < 0 ? SymValue.UNKNOWN : SymValue.primitive(sym.n(new LoopOut(id, slot, values.get(slot).type())), null));
    }
    after.startSegment(sym.newEpoch());
    return Map.of(exit, after);
  }

  /** Walks the body of one iteration from {@code first}, on path {@code s}; returns the paths back to the header. */
  private List<SymFrame> iteration(BlockWalker walker, Cfg.Block first, SymFrame s) {
    return first == loop.header ? List.of(s) : walker.walk(first, s.copy(), loop::contains, loop.header, (insn, f) -> {
      throw new Rejection("returns from inside an inner loop");
    });
  }

  /** The induction variables of a loop that steps by {@code step}, 1 or -1: what each iteration adds, by local. */
  private record Inductions(int step, Map<Integer, Node> increments) {}

  /**
   * The int locals among {@code written}, other than the loop's variable, that every iteration changes by the
   * same amount, on every path, while the variable steps by 1 or -1. Found by a probing walk from {@code s}, the
   * path after the exit test, whose statements are dropped; none when that walk fails too.
   */
  private Inductions inductions(BlockWalker walker, Cfg.Block first, SymFrame s, BitSet written, int ivar,
      int id, Cond cond, int headerStep, Node shifted) {
    Map<Integer, Node> found = new HashMap<>();
    SymFrame end;
    int step;
    boolean probing = body.probing;
    body.probing = true;
    body.openLoop();
    try {
      List<SymFrame> back = iteration(walker, first, s);
      if (back.isEmpty()) return new Inductions(1, found);
      end = SymFrame.join(back, sym);
      step = step(counted(end.getLocal(ivar), shifted, id), id, cond, headerStep);
    } catch (Rejection r) {
      return new Inductions(1, found);
    } finally {
      body.closeLoop();
      body.probing = probing;
    }
    if (Math.abs(step) != 1) return new Inductions(step, found);
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      if (k == ivar || !end.getLocal(k).isPrimitive()) continue;
      Node increment = incrementPerIteration(end.getLocal(k).node(), k, id);
      if (increment != null) found.put(k, increment);
    }
    return new Inductions(step, found);
  }

  /**
   * What an iteration of loop {@code id} adds to int local {@code k}, whose value it leaves as {@code next}: an
   * amount the loop does not change (it reads no element, nor anything the loop computes); null otherwise.
   */
  private static Node incrementPerIteration(Node next, int k, int id) {
    if (next == null || next.type() != io.looplift.ir.Type.INT) return null;
    Node increment = LoopAnalyzer.incrementOf(next, new CarriedVar(id, k, io.looplift.ir.Type.INT));
    if (increment == null || Nodes.anyMatch(increment, x -> x instanceof Load || x instanceof CarriedVar
        || x instanceof LoopOut || x instanceof LoopVar lv && lv.loop() == id)) {
      return null;
    }
    return increment;
  }

  /**
   * How many iterations the loop runs from {@code start} to {@code limit}, as an int node: what the guards'
   * trip count check ({@code LoopShape.trips}) lets through is always below 2^31. The distance is computed in
   * long arithmetic, where a loop that runs no iteration may have bounds far apart; from the two bounds'
   * invariant parts alone where their variables' terms are the same ({@code j < base + n} from {@code base}),
   * which keeps values after the loop affine. Null for a {@code !=} test with a step other than one.
   */
  private static Node trips(Node start, Node limit, Cond cond, int step) {
    boolean up = step > 0;
    if (cond == Cond.NE && Math.abs(step) != 1) return null;
    Affine from = Affine.of(start);
    Affine to = Affine.of(limit);
    boolean sameTerms = from != null && to != null && from.coefficients().equals(to.coefficients());
    Node distance = Binary.of(BinaryOp.SUB, Convert.of(sameTerms ? to.constant() : limit, io.looplift.ir.Type.LONG),
        Convert.of(sameTerms ? from.constant() : start, io.looplift.ir.Type.LONG));
    if (!up) distance = Unary.of(UnaryOp.NEG, distance);
    if (cond == Cond.LE || cond == Cond.GE) distance = Binary.of(BinaryOp.ADD, distance, Const.ofLong(1));
    Node count = Binary.of(BinaryOp.MAX, Const.ofLong(0), distance);
    long by = Math.abs((long) step);
    if (by != 1) {
      count = Binary.of(BinaryOp.DIV, Binary.of(BinaryOp.ADD, count, Const.ofLong(by - 1)), Const.ofLong(by));
    }
    return Convert.of(count, io.looplift.ir.Type.INT);
  }

  /**
   * The path at the start of an iteration: {@code outer}'s locals, except that the variable {@code ivar} is
   * {@link LoopVar}({@code id}) (none when -1) and the other locals the loop writes are placeholders:
   * {@link CarriedVar}({@code id}, local) for numbers, unknown for references, which each iteration must
   * assign before it reads them.
   */
  private SymFrame iterationStart(SymFrame outer, BitSet written, Frame<BasicValue> types, int id, int ivar) {
    SymFrame f = outer.copy();
    f.setCondition(Const.TRUE);
    f.startSegment(sym.newEpoch());
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      BasicValue t = k < types.getLocals() ? types.getLocal(k) : null;
      if (k == ivar) {
        f.setLocal(k, SymValue.primitive(sym.n(new LoopVar(id)), null));
      } else if (t == null || t.isReference() || t == BasicValue.UNINITIALIZED_VALUE || t == BasicValue.RETURNADDRESS_VALUE) {
        f.setLocal(k, SymValue.UNKNOWN);
      } else {
        f.setLocal(k, SymValue.primitive(sym.n(new CarriedVar(id, k, LoopAnalyzer.irType(t))), null));
      }
    }
    return f;
  }

  /**
   * The limit of a test that compares its variable before moving it by {@code by} ({@code k-- > 0}), restated
   * on the moved value: {@code limit + by}. Only for a constant limit, whose sum is known to stay in the int
   * range; a limit computed at run time could leave it, and the launch would run another number of iterations.
   */
  private static Node movedLimit(Node limit, int by) {
    if (limit instanceof Const c && c.type() == io.looplift.ir.Type.INT) {
      long moved = (long) c.intValue() + by;
      if (moved == (int) moved) return Const.ofInt((int) moved);
    }
    throw new Rejection("has an inner loop whose test compares its variable before moving it (k-- > n) with a limit"
        + " that is not a constant");
  }

  /**
   * The variable's value {@code next} at the back edge, restated on {@link LoopVar}: as it is without a test
   * offset ({@code shifted} null); with one, the body saw the variable as {@code shifted}, LoopVar minus the
   * offset, and moved it by what it added to that.
   */
  private static SymValue counted(SymValue next, Node shifted, int id) {
    if (shifted == null) return next;
    Node by = next.isPrimitive() ? LoopAnalyzer.incrementOf(next.node(), shifted) : null;
    return by == null ? SymValue.UNKNOWN : SymValue.primitive(Binary.of(BinaryOp.ADD, new LoopVar(id), by), null);
  }

  /**
   * The constant step by which the loop variable moves, by the body (to {@code next}) and by the exit test
   * ({@code headerStep}), checked against the direction of the exit test.
   */
  private static int step(SymValue next, int id, Cond cond, int headerStep) {
    Affine a = next.isPrimitive() ? Affine.of(next.node()) : null;
    if (a == null || a.coefficients().size() != 1 || !a.coefficient(new LoopVar(id)).equals(Const.ofInt(1))
        || !(a.constant() instanceof Const c) || c.intValue() + headerStep == 0) {
      throw new Rejection("has an inner loop whose variable does not change by a constant step");
    }
    int step = c.intValue() + headerStep;
    boolean up = cond == Cond.LT || cond == Cond.LE;
    boolean down = cond == Cond.GT || cond == Cond.GE;
    if ((up && step < 0) || (down && step > 0) || cond == Cond.EQ) {
      throw new Rejection("has an inner loop whose variable moves away from its limit");
    }
    return step;
  }

  /**
   * {@code bound} in the form guards check ({@link PiecewiseBound#canonical}): affine in the enclosing loops'
   * variables piece by piece, or the length of a row ({@code j < r.length}).
   */
  private Node bound(Node bound, String what) {
    if (bound instanceof Length len && Affine.of(len.row()) != null) return bound;
    Node canonical = PiecewiseBound.canonical(bound);
    if (PiecewiseBound.guardable(canonical)) return canonical;
    body.notAffine = true;
    throw new Rejection("has an inner loop whose " + what + " is not affine in the enclosing loop variables");
  }

  /** True when {@code n} reads loop {@code id}'s variable or a value it carries. */
  private static boolean mentions(Node n, int id) {
    return Nodes.anyMatch(n, x -> (x instanceof LoopVar v && v.loop() == id) || (x instanceof CarriedVar c && c.loop() == id));
  }

  private static void markPlaceholders(BitSet carried, Node n, int id) {
    for (Node x : Nodes.postOrder(List.of(n))) {
      if (x instanceof CarriedVar c && c.loop() == id) carried.set(c.slot());
    }
  }

  private String localName(int k) {
    return "'" + m.localName(k) + "'";
  }
}
