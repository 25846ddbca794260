package io.looplift.analyzer;

import io.looplift.ir.Acc;
import io.looplift.ir.Affine;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Stmt;
import io.looplift.ir.Stmts;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Recognizes the counted loops of one method and translates each into a {@link LoopTemplate}, or explains
 * why it cannot be: a loop with loops inside becomes one nest, run as one launch (see {@link InnerLoop} and
 * {@link NestRules}).
 */
final class LoopAnalyzer {

  /** What the analysis concluded about one loop: its site, accepted or rejected. */
  sealed interface Result permits Plan, Rejected {
    LoopSite site();
  }

  /**
   * A recognized loop, with what the rewriter needs to replace it; {@code initializedClasses} are the classes
   * (internal names) that must be initialized before it may run offloaded, {@code virtualTargets} the objects
   * whose methods it inlines, with the declarations inlined (see {@link LoopBody}); {@code headerStep}, for a
   * loop whose exit test first moves its variable ({@code for (k = n; --k >= 0; )}), that move (else 0): the
   * variable's value in an iteration is its value at the head plus {@code headerStep}.
   */
  record Plan(LoopSite site, Cfg.Loop loop, Cfg.Block preheader, Cfg.Block exit, int ivar, int headerStep,
      List<AbstractInsnNode> limitRecipe, List<List<AbstractInsnNode>> arrayRecipes,
      List<List<AbstractInsnNode>> paramRecipes, int[] accLocals, List<io.looplift.ir.Type> accTypes,
      List<String> initializedClasses, List<LoopBody.VirtualTarget> virtualTargets) implements Result {
    // What one analysis found of one loop, told apart by identity (its instructions are): the generated
    // methods would compare every component, and are linked through method handles on first use (see the ir
    // module's package-info, "equals and hashCode").
    @Override
    public boolean equals(Object o) {
      return this == o;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  /** A loop that stays as bytecode; its site says why. */
  record Rejected(LoopSite site) implements Result {}

  private final MethodContext ctx;
  private final String className;

  LoopAnalyzer(MethodContext ctx) {
    this.ctx = ctx;
    this.className = ctx.owner.name.replace('/', '.');
  }

  /**
   * Every loop of the method that is not part of an offloaded nest: a plan or a rejection for each. A loop
   * with loops inside is analyzed as a whole nest first; only when the nest cannot be offloaded are the loops
   * inside it analyzed on their own (each again as a nest of what it contains).
   */
  List<Result> analyze() {
    List<Result> results = new ArrayList<>();
    List<Cfg.Loop> loops = ctx.loops();
    for (Cfg.Loop loop : loops) {
      if (parent(loop, loops) == null) analyzeNest(loop, loops, results);
    }
    return results;
  }

  private void analyzeNest(Cfg.Loop loop, List<Cfg.Loop> loops, List<Result> results) {
    int line = lineOf(loop.header);
    Result r;
    try {
      r = plan(loop, line);
    } catch (Rejection e) {
      r = rejected(line, "loop", e.getMessage());
    } catch (RuntimeException e) {
      // A shape the analysis does not expect: this loop stays as it is, the method's other loops do not.
      r = rejected(line, "loop", "could not be analyzed: an internal error of LoopLift (" + e + ")");
    }
    results.add(r);
    if (r instanceof Plan) return;
    for (Cfg.Loop inner : loops) {
      if (parent(inner, loops) == loop) analyzeNest(inner, loops, results);
    }
  }

  /** The innermost loop strictly containing {@code loop}, or null for an outermost loop. */
  private static Cfg.Loop parent(Cfg.Loop loop, List<Cfg.Loop> loops) {
    Cfg.Loop parent = null;
    for (Cfg.Loop other : loops) {
      if (other == loop || !other.contains(loop.header)) continue;
      if (parent == null || parent.blocks.cardinality() > other.blocks.cardinality()) parent = other;
    }
    return parent;
  }

  private Rejected rejected(int line, String kind, String reason) {
    return new Rejected(LoopSite.rejected(className, ctx.method.name, ctx.method.desc, line, kind, reason));
  }

  private int lineOf(Cfg.Block header) {
    AbstractInsnNode[] insns = ctx.insns;
    for (int k = header.end - 1; k >= 0; k--) {
      if (insns[k] instanceof LineNumberNode ln) return ln.line;
    }
    for (int k = header.end; k < insns.length; k++) {
      if (insns[k] instanceof LineNumberNode ln) return ln.line;
    }
    return -1;
  }

  private Plan plan(Cfg.Loop loop, int line) {
    Cfg cfg = ctx.cfg;
    Cfg.Block header = loop.header;
    AbstractInsnNode test = ctx.insns[header.end - 1];
    if (!(test instanceof JumpInsnNode jump) || jump.getOpcode() == Opcodes.GOTO
        || jump.getOpcode() == Opcodes.IFNULL || jump.getOpcode() == Opcodes.IFNONNULL) {
      throw new Rejection("not a counted loop: no exit test at the loop head (do-while, or while(true) with break)");
    }
    Cfg.Block exit = ctx.exitOf(loop, "");
    for (TryCatchBlockNode tcb : ctx.method.tryCatchBlocks) {
      if (loop.contains(cfg.blockOf(ctx.method.instructions.indexOf(tcb.handler)))) {
        throw new Rejection("contains a try/catch block");
      }
    }
    Cfg.Block preheader = null;
    for (Cfg.Block p : header.preds) {
      if (loop.contains(p)) continue;
      if (preheader != null) throw new Rejection("is entered from several places");
      preheader = p;
    }
    if (preheader == null) throw new Rejection("is not entered normally");

    BitSet written = ctx.writtenLocals(loop);
    Frame<BasicValue> entryFrame = ctx.frames[header.start];
    if (entryFrame == null) throw new Rejection("is unreachable");
    if (entryFrame.getStackSize() != 0) throw new Rejection("keeps values on the operand stack across iterations");
    boolean continueOnJump = loop.contains(cfg.blockOf(ctx.method.instructions.indexOf(jump.label)));

    // Pass 1: which local the exit test compares with an invariant limit.
    LoopBody probed = new LoopBody();
    SymInterpreter probe = new SymInterpreter(ctx, probed);
    SymFrame st = initialFrame(probed, entryFrame, written, -1, 0);
    new BlockWalker(ctx, probe).execute(header, st);
    SymValue[] operands = st.popCompared(jump);
    int ivar = -1;
    int headerStep = 0;
    boolean comparedBeforeMove = false;
    boolean ivarLeft = false;
    List<AbstractInsnNode> testOffset = null;
    for (int side = 0; side < 2; side++) {
      SymValue v = operands[side];
      SymValue other = operands[1 - side];
      if (!v.isPrimitive() || !other.isInvariant()) continue;
      if (v.node() instanceof Acc a && a.type() == io.looplift.ir.Type.INT) {
        ivar = a.index();
        ivarLeft = side == 0;
        headerStep = movedAfterTest(a, st.getLocal(ivar));
        comparedBeforeMove = headerStep != 0;
        testOffset = null;
        continue;
      }
      ToIntFunction<Node> slot = x -> x instanceof Acc a ? a.index() : -1;
      MovedInTest moved = movedInTest(v, st, slot);
      OffsetInTest offset = moved == null ? offsetInTest(v.node(), st, slot) : null;
      List<AbstractInsnNode> offsetRecipe = offset == null ? null : recipeOf(offset.by(), probed);
      if (moved == null && offsetRecipe == null) continue;
      ivar = moved != null ? moved.local() : offset.local();
      ivarLeft = side == 0;
      headerStep = moved != null ? moved.by() : 0;
      comparedBeforeMove = false;
      testOffset = offsetRecipe;
    }
    if (ivar < 0) throw new Rejection("not a counted loop: the exit test does not compare an int variable with a loop-invariant limit");
    List<AbstractInsnNode> limitRecipe = operands[ivarLeft ? 1 : 0].recipe();
    if (comparedBeforeMove) limitRecipe = movedLimit(limitRecipe, headerStep);
    Cond cond = BlockWalker.jumpCond(jump);
    if (!continueOnJump) cond = cond.negate();
    if (!ivarLeft) cond = cond.mirror();

    // Pass 2: the whole body with the induction variable as Index; again with the other induction variables
    // as functions of Index when it fails (a store at out[j] where j += 2 in every iteration is not affine
    // until j is known to be one).
    LoopBody body = new LoopBody();
    SymFrame end;
    try {
      end = walkBody(loop, jump, continueOnJump, body, initialFrame(body, entryFrame, written, ivar, headerStep),
          ivar, headerStep);
    } catch (Rejection r) {
      if (!body.notAffine) throw r;
      LoopBody probing = new LoopBody();
      probing.probing = true;
      Map<Integer, Induction> inductions;
      try {
        inductions = inductions(walkBody(loop, jump, continueOnJump, probing,
            initialFrame(probing, entryFrame, written, ivar, headerStep), ivar, headerStep), written, ivar, headerStep);
      } catch (Rejection again) {
        throw r;
      }
      if (inductions.isEmpty()) throw r;
      body = new LoopBody();
      SymFrame initial = initialFrame(body, entryFrame, written, ivar, headerStep);
      for (Map.Entry<Integer, Induction> e : inductions.entrySet()) {
        initial.setLocal(e.getKey(), SymValue.primitive(e.getValue().value(body, probing, e.getKey(), ivar), null));
      }
      end = walkBody(loop, jump, continueOnJump, body, initial, ivar, headerStep);
      // Those read after the loop are also the sums of what each iteration adds: accumulators, whose final
      // values a launch leaves in them as it does any reduction's.
      BitSet live = Liveness.liveAtEntry(ctx, exit);
      for (Map.Entry<Integer, Induction> e : inductions.entrySet()) {
        if (!live.get(e.getKey())) continue;
        Node sum = Binary.of(BinaryOp.ADD, new Acc(e.getKey(), io.looplift.ir.Type.INT), e.getValue().increment(body, probing));
        end.setLocal(e.getKey(), SymValue.primitive(sum, null));
      }
    }

    body.checkGathers();
    int stepValue = stepOf(end, ivar, headerStep);
    if (stepValue == 0) throw new Rejection("the loop variable does not change by a constant step in every iteration");
    boolean up = cond == Cond.LT || cond == Cond.LE;
    boolean down = cond == Cond.GT || cond == Cond.GE;
    if ((up && stepValue < 0) || (down && stepValue > 0) || cond == Cond.EQ) {
      throw new Rejection("the loop variable moves away from its limit");
    }
    if (testOffset != null) limitRecipe = offsetLimit(limitRecipe, testOffset, ivar, stepValue);
    boolean nest = body.general || !body.statements().stream().allMatch(x -> x instanceof Store)
        || body.arrays.values().stream().anyMatch(LoopBody.ArraySlot::rows);
    if (!nest) {
      try {
        checkCarriedDependencies(body);
      } catch (Rejection r) {
        // Stores at different offsets of one array (c[2*i], c[2*i+1]) are not flat; the nest rules decide.
        nest = true;
      }
    }
    return assemble(loop, line, preheader, exit, ivar, headerStep, limitRecipe, new LoopShape(cond, stepValue), body,
        end, written, entryFrame, nest);
  }

  /**
   * The recipe of {@code limit + by}, the limit of a test that compares its variable before moving it by
   * {@code by} ({@code k-- > limit}), restated on the moved value. {@code Math.addExact} throws where the sum
   * leaves the int range, and the preamble then runs the original loop.
   */
  private static List<AbstractInsnNode> movedLimit(List<AbstractInsnNode> limit, int by) {
    List<AbstractInsnNode> recipe = new ArrayList<>(limit);
    recipe.add(new LdcInsnNode(by));
    recipe.add(exact("addExact"));
    return List.copyOf(recipe);
  }

  /**
   * The recipe of {@code limit - offset}, the limit of a test that compares its variable plus an invariant
   * {@code offset} ({@code i + 4 <= n}, as unrolled and blocked loops do), restated on the variable. Java adds
   * in wrapping arithmetic, so the two tests agree only where the sum stays in the int range for every value
   * the variable takes: from its start to its value after the last iteration, which lies within one
   * {@code step} past the limit. So the recipe also computes {@code start + offset} and {@code limit + step},
   * with {@code Math.addExact}: where either leaves the range it throws, and the preamble then runs the
   * original loop.
   */
  private static List<AbstractInsnNode> offsetLimit(List<AbstractInsnNode> limit, List<AbstractInsnNode> offset,
      int ivar, int step) {
    List<AbstractInsnNode> recipe = new ArrayList<>();
    recipe.add(new VarInsnNode(Opcodes.ILOAD, ivar));
    recipe.addAll(offset);
    recipe.add(exact("addExact"));
    recipe.add(new InsnNode(Opcodes.POP));
    recipe.addAll(limit);
    recipe.add(new LdcInsnNode(step));
    recipe.add(exact("addExact"));
    recipe.add(new InsnNode(Opcodes.POP));
    recipe.addAll(limit);
    recipe.addAll(offset);
    recipe.add(exact("subtractExact"));
    return List.copyOf(recipe);
  }

  private static MethodInsnNode exact(String name) {
    return new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Math", name, "(II)I", false);
  }

  /**
   * The recipe that recomputes {@code offset}, a value the loop does not change, before it: a constant's, or
   * a parameter's; null for any other (an offset computed in the test itself).
   */
  private static List<AbstractInsnNode> recipeOf(Node offset, LoopBody body) {
    if (offset instanceof Const c && c.type() == io.looplift.ir.Type.INT) return List.of(new LdcInsnNode(c.intValue()));
    return offset instanceof Param p && p.type() == io.looplift.ir.Type.INT ? body.paramRecipes.get(p) : null;
  }

  /**
   * By how much an exit test that compares {@code head}, the loop variable's value at the head, moves the
   * variable after reading it ({@code k-- > 0}: the same test as {@code --k > 0 - 1}), {@code after} being the
   * variable once the test ran; 0 when it does not move it by a constant.
   */
  static int movedAfterTest(Node head, SymValue after) {
    return after.isPrimitive() && incrementOf(after.node(), head) instanceof Const d ? d.intValue() : 0;
  }

  /** An int local that an exit test moves by {@code by} before comparing it. */
  record MovedInTest(int local, int by) {}

  /**
   * The int local whose value at the top of an iteration {@code slot} names (its local's index, -1 for any
   * other node), when {@code v} is that value moved by a constant in the exit test before the test read it
   * ({@code --k >= 0}; {@code afterTest}, the path after the test, holds {@code v} in that local); else null.
   */
  static MovedInTest movedInTest(SymValue v, SymFrame afterTest, ToIntFunction<Node> slot) {
    Node found = onlyLocal(v.node(), afterTest, slot);
    if (found == null) return null;
    SymValue local = afterTest.getLocal(slot.applyAsInt(found));
    if (local.isPrimitive() && local.node().equals(v.node())
        && incrementOf(v.node(), found) instanceof Const d && d.intValue() != 0) {
      return new MovedInTest(slot.applyAsInt(found), d.intValue());
    }
    return null;
  }

  /** An int local that an exit test compares plus {@code by}, a value the loop does not change. */
  record OffsetInTest(int local, Node by) {}

  /**
   * The local and the invariant when {@code v}, the value an exit test compares, is an int local (named by
   * {@code slot} as in {@link #movedInTest}) plus or minus an invariant ({@code i + 4}, {@code lag + j},
   * {@code i - 2}), the test leaving the local as it was ({@code afterTest} is the path after it); else null.
   */
  static OffsetInTest offsetInTest(Node v, SymFrame afterTest, ToIntFunction<Node> slot) {
    Node found = onlyLocal(v, afterTest, slot);
    if (found == null) return null;
    SymValue local = afterTest.getLocal(slot.applyAsInt(found));
    if (!local.isPrimitive() || !local.node().equals(found)) return null;
    Node by = incrementOf(v, found);
    return by == null || by.equals(Const.ofInt(0)) ? null : new OffsetInTest(slot.applyAsInt(found), by);
  }

  /**
   * The one node of {@code v} that {@code slot} names an int local of {@code frame} for; null when there is
   * none, or more than one.
   */
  private static Node onlyLocal(Node v, SymFrame frame, ToIntFunction<Node> slot) {
    Node found = null;
    for (Node x : Nodes.postOrder(List.of(v))) {
      if (slot.applyAsInt(x) < 0) continue;
      if (found != null && !found.equals(x)) return null;
      found = x;
    }
    if (found == null || found.type() != io.looplift.ir.Type.INT || slot.applyAsInt(found) >= frame.getLocals()) {
      return null;
    }
    return found;
  }

  /**
   * How far the loop variable moves from one iteration to the next: by the body (its value at the back edge
   * is Index plus a constant) and by the exit test; 0 when it does not move by a constant.
   */
  private static int stepOf(SymFrame end, int ivar, int headerStep) {
    SymValue iv = end.getLocal(ivar);
    AffineIndex step = iv.isPrimitive() ? AffineIndex.of(iv.node()) : null;
    if (step == null || step.scale() != 1 || !(step.offset() instanceof Const c)) return 0;
    return c.intValue() + headerStep;
  }

  /**
   * Walks one iteration of {@code loop} from {@code initial}: the header (the exit test) on the path of every
   * iteration, then the rest of the body from the side of the test that stays in the loop (the header itself
   * when the loop is nothing but its header). Returns the frame at the back edge, the paths there joined.
   */
  private SymFrame walkBody(Cfg.Loop loop, JumpInsnNode jump, boolean continueOnJump, LoopBody body, SymFrame initial,
      int ivar, int headerStep) {
    Cfg.Block header = loop.header;
    SymInterpreter sym = new SymInterpreter(ctx, body);
    BlockWalker walker = new BlockWalker(ctx, sym);
    SymFrame s = initial.copy();
    walker.execute(header, s);
    s.popCompared(jump);
    SymFrame expected = initial;
    if (headerStep != 0) {
      // The test moved the variable from Index - headerStep to Index: the body sees Index itself.
      AffineIndex moved = s.getLocal(ivar).isPrimitive() ? AffineIndex.of(s.getLocal(ivar).node()) : null;
      if (moved == null || moved.scale() != 1 || !(moved.offset() instanceof Const c) || c.intValue() != 0) {
        throw new Rejection("assigns variables or array elements in its loop condition");
      }
      SymValue index = SymValue.primitive(Index.I, null);
      s.setLocal(ivar, index);
      expected = initial.copy();
      expected.setLocal(ivar, index);
    }
    if (body.storeCount() != 0 || !s.sameLocals(expected)) {
      throw new Rejection("assigns variables or array elements in its loop condition");
    }
    Cfg.Block first = ctx.cfg.blockOf(continueOnJump ? ctx.method.instructions.indexOf(jump.label) : header.end);
    List<SymFrame> back = first == header ? List.of(s) : walker.walk(first, s, loop::contains, header, (insn, f) -> {
      throw new Rejection("returns from inside the loop");
    });
    if (back.isEmpty()) throw new Rejection("never repeats");
    return SymFrame.join(back, sym);
  }

  /**
   * An int local other than the loop variable that every iteration changes by the same amount,
   * {@code increment} (a node of the probing walk's body), while the loop variable steps by {@code step}
   * (1 or -1): in the iteration where the loop variable is {@code i}, it holds
   * {@code start + (i - i0) * step * increment}, {@code start} and {@code i0} being the two locals' values on
   * entry.
   */
  private record Induction(Node increment, int step) {
    /** That value, for a walk of {@code body}; the increment's parameters move over from {@code probed}'s. */
    Node value(LoopBody body, LoopBody probed, int local, int ivar) {
      Node start = body.param(io.looplift.ir.Type.INT, List.of(new VarInsnNode(Opcodes.ILOAD, local))).node();
      Node i0 = body.param(io.looplift.ir.Type.INT, List.of(new VarInsnNode(Opcodes.ILOAD, ivar))).node();
      Node done = step > 0 ? Binary.of(BinaryOp.SUB, Index.I, i0) : Binary.of(BinaryOp.SUB, i0, Index.I);
      return Binary.of(BinaryOp.ADD, start, Binary.of(BinaryOp.MUL, done, increment(body, probed)));
    }

    /** The increment, for a walk of {@code body}, its parameters moved over from {@code probed}'s. */
    Node increment(LoopBody body, LoopBody probed) {
      return Nodes.rewrite(increment, x -> x instanceof Param p ? body.param(p.type(), probed.paramRecipes.get(p)).node() : x);
    }
  }

  /**
   * The induction variables among {@code written} of a loop whose probing walk ended in {@code end}: int
   * locals whose value at the back edge is their value at the top plus (or minus) a value that is the same
   * in every iteration, on every path; only when the loop variable steps by 1 or -1.
   */
  private static Map<Integer, Induction> inductions(SymFrame end, BitSet written, int ivar, int headerStep) {
    Map<Integer, Induction> found = new LinkedHashMap<>();
    int step = stepOf(end, ivar, headerStep);
    if (Math.abs(step) != 1) return found;
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      if (k == ivar || !end.getLocal(k).isPrimitive()) continue;
      Node increment = incrementOf(end.getLocal(k).node(), new Acc(k, io.looplift.ir.Type.INT));
      if (increment != null && Affine.isInvariant(increment)) found.put(k, new Induction(increment, step));
    }
    return found;
  }

  /**
   * {@code e} such that {@code n} is {@code acc + e} in int arithmetic, {@code e} not reading {@code acc}
   * ({@code (acc + 1) + 1} for two {@code k++}), or null.
   */
  static Node incrementOf(Node n, Node acc) {
    if (n.equals(acc)) return Const.ofInt(0);
    if (!(n instanceof Binary b) || b.type() != io.looplift.ir.Type.INT) return null;
    boolean inX = Nodes.anyMatch(b.x(), acc::equals);
    boolean inY = Nodes.anyMatch(b.y(), acc::equals);
    if (inX == inY || b.op() != BinaryOp.ADD && (b.op() != BinaryOp.SUB || inY)) return null;
    Node e = incrementOf(inX ? b.x() : b.y(), acc);
    if (e == null) return null;
    return inX ? Binary.of(b.op(), e, b.y()) : Binary.of(BinaryOp.ADD, b.x(), e);
  }

  private Plan assemble(Cfg.Loop loop, int line, Cfg.Block preheader, Cfg.Block exit, int ivar, int headerStep,
      List<AbstractInsnNode> limitRecipe, LoopShape shape, LoopBody body, SymFrame end, BitSet written,
      Frame<BasicValue> entryFrame, boolean nest) {
    List<Stmt> statements = body.statements();
    // Locals changed by the body: accumulators (their old value is read) or temporaries (it is not).
    Map<Integer, Node> finals = new LinkedHashMap<>();
    for (int k = written.nextSetBit(0); k >= 0; k = written.nextSetBit(k + 1)) {
      if (k == ivar) continue;
      SymValue v = end.getLocal(k);
      BasicValue t = entryFrame.getLocal(k);
      boolean primitive = t != null && t != BasicValue.UNINITIALIZED_VALUE && !t.isReference();
      if (v.isPrimitive() && primitive && v.node().equals(new Acc(k, v.node().type()))) continue;
      finals.put(k, v.isPrimitive() && primitive ? v.node() : null);
    }
    BitSet carried = new BitSet();
    for (Node n : Stmts.roots(statements)) markAccs(carried, n);
    finals.forEach((k, f) -> {
      if (f != null && Nodes.anyMatch(f, x -> x instanceof Acc a && a.index() == k)) carried.set(k);
    });
    boolean grew = true;
    while (grew) {
      int before = carried.cardinality();
      for (int k = carried.nextSetBit(0); k >= 0; k = carried.nextSetBit(k + 1)) {
        Node f = finals.get(k);
        if (f == null && finals.containsKey(k)) throw new Rejection("carries a value of changing type across iterations");
        if (f != null) markAccs(carried, f);
      }
      grew = carried.cardinality() != before;
    }
    BitSet live = Liveness.liveAtEntry(ctx, exit);
    for (Integer k : finals.keySet()) {
      if (!carried.get(k) && live.get(k)) {
        throw new Rejection("local variable " + localName(k) + " is assigned in the loop and used after it");
      }
    }

    // Dense numbering of accumulators and parameters actually used.
    List<Integer> accLocals = new ArrayList<>();
    for (int k = carried.nextSetBit(0); k >= 0; k = carried.nextSetBit(k + 1)) {
      if (!finals.containsKey(k)) throw new Rejection("reads local variable " + localName(k) + " before it is assigned");
      accLocals.add(k);
    }
    List<Node> updates = new ArrayList<>();
    for (int k : accLocals) updates.add(finals.get(k));
    NestRules.Decision decision = nest
        ? NestRules.decide(body, statements, updates, end.epoch(), !accLocals.isEmpty()) : null;
    Map<Integer, Integer> accIndex = new HashMap<>();
    for (int k = 0; k < accLocals.size(); k++) accIndex.put(accLocals.get(k), k);
    List<Node> roots = Stmts.roots(statements);
    roots.addAll(updates);
    Map<Param, Param> paramIndex = new LinkedHashMap<>();
    for (Node x : Nodes.postOrder(roots)) {
      if (x instanceof Param p && !paramIndex.containsKey(p)) paramIndex.put(p, new Param(paramIndex.size(), p.type()));
    }
    boolean[] written2 = nest ? NestRules.writtenArrays(statements, body.arrays.size()) : null;
    UnaryOperator<Node> leaf = x -> {
      if (x instanceof Acc a) return new Acc(accIndex.get(a.index()), a.type());
      if (x instanceof Param p) return paramIndex.get(p);
      // Reads of arrays the nest never writes are the same value in every segment: one node each.
      if (x instanceof Load l && l.epoch() != 0 && !written2[l.array()]) {
        return new Load(l.array(), l.elementType(), l.index(), l.row(), 0);
      }
      return x;
    };
    List<Stmt> rewritten = Stmts.rewrite(nest ? NestRules.markParallel(statements, decision) : statements, leaf,
        (old, now) -> {});
    List<Reduction> reductions = new ArrayList<>();
    List<io.looplift.ir.Type> accTypes = new ArrayList<>();
    for (int j = 0; j < accLocals.size(); j++) {
      Node update = Nodes.rewrite(updates.get(j), leaf);
      accTypes.add(update.type());
      reductions.add(ReductionClassifier.classify(j, update));
    }
    List<io.looplift.ir.Type> arrayTypes = new ArrayList<>();
    List<List<AbstractInsnNode>> arrayRecipes = new ArrayList<>();
    List<Integer> rowArrays = new ArrayList<>();
    for (LoopBody.ArraySlot a : body.arrays.values()) {
      arrayTypes.add(a.elementType());
      arrayRecipes.add(a.recipe());
      if (a.rows()) rowArrays.add(a.slot());
    }
    List<io.looplift.ir.Type> paramTypes = new ArrayList<>();
    List<List<AbstractInsnNode>> paramRecipes = new ArrayList<>();
    paramIndex.forEach((old, p) -> {
      paramTypes.add(p.type());
      paramRecipes.add(body.paramRecipes.get(old));
    });
    LoopTemplate template = new LoopTemplate(arrayTypes, paramTypes, accTypes, rewritten, reductions, rowArrays,
        nest && decision.ordered());
    String kind = template.depth() > 1 ? "nest" : ReductionClassifier.kind(template);
    List<String> parallel = template.depth() > 1 ? parallelNames(ivar, decision, body, template) : List.of();
    LoopSite site = new LoopSite(className, ctx.method.name, ctx.method.desc, line, kind, template, shape, null,
        !body.loadAfterStore, parallel);
    return new Plan(site, loop, preheader, exit, ivar, headerStep, limitRecipe, arrayRecipes, paramRecipes,
        accLocals.stream().mapToInt(Integer::intValue).toArray(), accTypes, List.copyOf(body.initializedClasses),
        List.copyOf(body.receiverGuards.values()));
  }

  /**
   * The source names of the variables of the loops that run in parallel with the default options (the
   * outermost loop not when its floating-point reductions keep Java's order), the outermost first.
   */
  private List<String> parallelNames(int ivar, NestRules.Decision decision, LoopBody body, LoopTemplate template) {
    List<String> names = new ArrayList<>();
    if (template.isParallel(false)) names.add(ctx.localName(ivar));
    for (int id : decision.parallelLoops()) names.add(body.loopVariables.get(id));
    return names;
  }

  private static void markAccs(BitSet carried, Node n) {
    for (Node x : Nodes.postOrder(List.of(n))) {
      if (x instanceof Acc a) carried.set(a.index());
    }
  }

  /** Each written array must be read only at the element it writes in the same iteration. */
  private static void checkCarriedDependencies(LoopBody body) {
    Map<Integer, AffineIndex> writes = new HashMap<>();
    for (LoopBody.Access a : body.accesses) {
      if (!a.write()) continue;
      AffineIndex prev = writes.putIfAbsent(a.slot(), a.index());
      if (prev != null && !prev.equals(a.index())) {
        throw new Rejection("writes one array at two different offsets in an iteration");
      }
    }
    for (LoopBody.Access a : body.accesses) {
      AffineIndex w = writes.get(a.slot());
      if (!a.write() && w != null && !w.equals(a.index())) {
        throw new Rejection("carried dependency: reads an element of an array that another iteration writes");
      }
    }
  }

  /**
   * The frame at the start of an iteration: the induction variable {@code ivar} is {@link Index} (none when
   * -1; {@code Index - headerStep} for a loop whose exit test moves it by {@code headerStep}), locals the loop writes are accumulators ({@link Acc}, their value when the iteration starts), the
   * others parameters or invariant references.
   */
  private SymFrame initialFrame(LoopBody body, Frame<BasicValue> frame, BitSet written, int ivar, int headerStep) {
    SymFrame s = new SymFrame(ctx.method.maxLocals, ctx.method.maxStack);
    for (int k = 0; k < frame.getLocals(); k++) {
      BasicValue v = frame.getLocal(k);
      if (v == null || v == BasicValue.UNINITIALIZED_VALUE || v == BasicValue.RETURNADDRESS_VALUE) continue;
      if (k == ivar) {
        // At the head, before an exit test that moves it, the variable is one move short of Index.
        Node top = headerStep == 0 ? Index.I : Binary.of(BinaryOp.SUB, Index.I, Const.ofInt(headerStep));
        s.setLocal(k, SymValue.primitive(top, null));
        continue;
      }
      if (v.isReference()) {
        // A reference local assigned in the loop is not invariant: leave it unknown.
        if (!written.get(k)) s.setLocal(k, SymValue.reference(v.getType(), List.of(new VarInsnNode(Opcodes.ALOAD, k))));
        continue;
      }
      io.looplift.ir.Type t = irType(v);
      if (written.get(k)) s.setLocal(k, SymValue.primitive(new Acc(k, t), null));
      else s.setLocal(k, body.param(t, List.of(new VarInsnNode(loadOpcode(t), k))));
    }
    return s;
  }

  static io.looplift.ir.Type irType(BasicValue v) {
    if (v == BasicValue.INT_VALUE) return io.looplift.ir.Type.INT;
    if (v == BasicValue.LONG_VALUE) return io.looplift.ir.Type.LONG;
    if (v == BasicValue.FLOAT_VALUE) return io.looplift.ir.Type.FLOAT;
    if (v == BasicValue.DOUBLE_VALUE) return io.looplift.ir.Type.DOUBLE;
    throw new Rejection("uses a local of unsupported type " + v);
  }

  static int loadOpcode(io.looplift.ir.Type t) {
    return switch (t) {
      case LONG -> Opcodes.LLOAD;
      case FLOAT -> Opcodes.FLOAD;
      case DOUBLE -> Opcodes.DLOAD;
      default -> Opcodes.ILOAD;
    };
  }

  private String localName(int k) {
    return "'" + ctx.localName(k) + "'";
  }
}
