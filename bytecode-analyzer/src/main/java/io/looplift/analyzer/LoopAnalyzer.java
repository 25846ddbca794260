package io.looplift.analyzer;

import io.looplift.ir.Acc;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Recognizes the counted loops of one method and translates each innermost one into a
 * {@link LoopTemplate}, or explains why it cannot be.
 */
final class LoopAnalyzer {

  /** What the analysis concluded about one loop: its site, accepted or rejected. */
  sealed interface Result permits Plan, Rejected {
    LoopSite site();
  }

  /** A recognized loop, with what the rewriter needs to replace it. */
  record Plan(LoopSite site, Cfg.Loop loop, Cfg.Block preheader, Cfg.Block exit, int ivar,
      List<AbstractInsnNode> limitRecipe, List<List<AbstractInsnNode>> arrayRecipes,
      List<List<AbstractInsnNode>> paramRecipes, int[] accLocals, List<io.looplift.ir.Type> accTypes)
      implements Result {}

  /** A loop that stays as bytecode; its site says why. */
  record Rejected(LoopSite site) implements Result {}

  private final MethodContext ctx;
  private final String className;

  LoopAnalyzer(MethodContext ctx) {
    this.ctx = ctx;
    this.className = ctx.owner.name.replace('/', '.');
  }

  /** Every loop of the method, in the order of {@link Cfg#loops()}: a plan or a rejection for each. */
  List<Result> analyze() {
    List<Result> results = new ArrayList<>();
    List<Cfg.Loop> loops = ctx.cfg.loops();
    for (Cfg.Loop loop : loops) {
      int line = lineOf(loop.header);
      boolean nested = false;
      for (Cfg.Loop other : loops) nested |= other != loop && loop.contains(other.header);
      if (nested) {
        results.add(rejected(line, "loop", "contains a nested loop (inner loops are handled on their own)"));
        continue;
      }
      try {
        results.add(plan(loop, line));
      } catch (Rejection r) {
        results.add(rejected(line, "loop", r.getMessage()));
      }
    }
    return results;
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
    Cfg.Block exit = null;
    for (Cfg.Block b : cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (Cfg.Block s : b.succs) {
        if (loop.contains(s)) continue;
        if (b != header || exit != null) throw new Rejection("has an early exit (break, return or a second exit test)");
        exit = s;
      }
    }
    if (exit == null) throw new Rejection("never exits through its loop test");
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

    BitSet written = writtenLocals(loop);
    Frame<BasicValue> entryFrame = ctx.frames[header.start];
    if (entryFrame == null) throw new Rejection("is unreachable");
    if (entryFrame.getStackSize() != 0) throw new Rejection("keeps values on the operand stack across iterations");
    boolean continueOnJump = loop.contains(cfg.blockOf(ctx.method.instructions.indexOf(jump.label)));

    // Pass 1: which local the exit test compares with an invariant limit.
    LoopBody probed = new LoopBody();
    SymInterpreter probe = new SymInterpreter(ctx, probed);
    SymFrame st = initialFrame(probed, entryFrame, written, -1);
    new BlockWalker(ctx, probe).execute(header, st);
    SymValue[] operands = st.popCompared(jump);
    int ivar = -1;
    boolean ivarLeft = false;
    for (int side = 0; side < 2; side++) {
      SymValue v = operands[side];
      SymValue other = operands[1 - side];
      if (v.node() instanceof Acc a && a.type() == io.looplift.ir.Type.INT && other.isInvariant()) {
        ivar = a.index();
        ivarLeft = side == 0;
      }
    }
    if (ivar < 0) throw new Rejection("not a counted loop: the exit test does not compare an int variable with a loop-invariant limit");
    List<AbstractInsnNode> limitRecipe = operands[ivarLeft ? 1 : 0].recipe();
    Cond cond = BlockWalker.jumpCond(jump);
    if (!continueOnJump) cond = cond.negate();
    if (!ivarLeft) cond = cond.mirror();

    // Pass 2: the whole body with the induction variable as Index. The header (the exit test) runs on
    // the path of every iteration; the rest of the body is walked from the side of the test that stays
    // in the loop, which is the header itself when the loop is nothing but its header.
    LoopBody body = new LoopBody();
    SymInterpreter sym = new SymInterpreter(ctx, body);
    BlockWalker walker = new BlockWalker(ctx, sym);
    SymFrame initial = initialFrame(body, entryFrame, written, ivar);
    SymFrame s = initial.copy();
    walker.execute(header, s);
    s.popCompared(jump);
    if (!body.stores.isEmpty() || !s.sameLocals(initial)) {
      throw new Rejection("assigns variables or array elements in its loop condition");
    }
    Cfg.Block first = cfg.blockOf(continueOnJump ? ctx.method.instructions.indexOf(jump.label) : header.end);
    List<SymFrame> back = first == header ? List.of(s) : walker.walk(first, s, loop::contains, header, (insn, f) -> {
      throw new Rejection("returns from inside the loop");
    });
    if (back.isEmpty()) throw new Rejection("never repeats");
    SymFrame end = SymFrame.join(back, sym);

    SymValue iv = end.getLocal(ivar);
    AffineIndex step = iv.isPrimitive() ? AffineIndex.of(iv.node()) : null;
    if (step == null || step.scale() != 1 || !(step.offset() instanceof Const c) || c.intValue() == 0) {
      throw new Rejection("the loop variable does not change by a constant step in every iteration");
    }
    int stepValue = ((Const) step.offset()).intValue();
    boolean up = cond == Cond.LT || cond == Cond.LE;
    boolean down = cond == Cond.GT || cond == Cond.GE;
    if ((up && stepValue < 0) || (down && stepValue > 0) || cond == Cond.EQ) {
      throw new Rejection("the loop variable moves away from its limit");
    }
    checkCarriedDependencies(body);
    return assemble(loop, line, preheader, exit, ivar, limitRecipe, new LoopShape(cond, stepValue), body, end, written,
        entryFrame);
  }

  private Plan assemble(Cfg.Loop loop, int line, Cfg.Block preheader, Cfg.Block exit, int ivar,
      List<AbstractInsnNode> limitRecipe, LoopShape shape, LoopBody body, SymFrame end, BitSet written,
      Frame<BasicValue> entryFrame) {
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
    for (Store s : body.stores) markAccs(carried, s.index(), s.value(), s.predicate());
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
    Map<Integer, Integer> accIndex = new HashMap<>();
    for (int k = 0; k < accLocals.size(); k++) accIndex.put(accLocals.get(k), k);
    List<Node> roots = new ArrayList<>();
    for (Store s : body.stores) {
      roots.add(s.index());
      roots.add(s.value());
      roots.add(s.predicate());
    }
    for (int k : accLocals) roots.add(finals.get(k));
    Map<Param, Param> paramIndex = new LinkedHashMap<>();
    for (Node x : Nodes.postOrder(roots)) {
      if (x instanceof Param p && !paramIndex.containsKey(p)) paramIndex.put(p, new Param(paramIndex.size(), p.type()));
    }
    UnaryOperator<Node> leaf = x -> {
      if (x instanceof Acc a) return new Acc(accIndex.get(a.index()), a.type());
      if (x instanceof Param p) return paramIndex.get(p);
      return x;
    };
    List<Store> stores = new ArrayList<>();
    for (Store s : body.stores) {
      stores.add(new Store(s.array(), s.elementType(), Nodes.rewrite(s.index(), leaf), Nodes.rewrite(s.value(), leaf),
          Nodes.rewrite(s.predicate(), leaf)));
    }
    List<Reduction> reductions = new ArrayList<>();
    List<io.looplift.ir.Type> accTypes = new ArrayList<>();
    for (int j = 0; j < accLocals.size(); j++) {
      Node update = Nodes.rewrite(finals.get(accLocals.get(j)), leaf);
      accTypes.add(update.type());
      reductions.add(ReductionClassifier.classify(j, update));
    }
    List<io.looplift.ir.Type> arrayTypes = new ArrayList<>();
    List<List<AbstractInsnNode>> arrayRecipes = new ArrayList<>();
    for (LoopBody.ArraySlot a : body.arrays.values()) {
      arrayTypes.add(a.elementType());
      arrayRecipes.add(a.recipe());
    }
    List<io.looplift.ir.Type> paramTypes = new ArrayList<>();
    List<List<AbstractInsnNode>> paramRecipes = new ArrayList<>();
    paramIndex.forEach((old, p) -> {
      paramTypes.add(p.type());
      paramRecipes.add(body.paramRecipes.get(old));
    });
    LoopTemplate template = new LoopTemplate(arrayTypes, paramTypes, accTypes, stores, reductions);
    String kind = ReductionClassifier.kind(template);
    LoopSite site = new LoopSite(className, ctx.method.name, ctx.method.desc, line, kind, template, shape, null,
        !body.loadAfterStore);
    return new Plan(site, loop, preheader, exit, ivar, limitRecipe, arrayRecipes, paramRecipes,
        accLocals.stream().mapToInt(Integer::intValue).toArray(), accTypes);
  }

  private static void markAccs(BitSet carried, Node... nodes) {
    for (Node n : nodes) {
      for (Node x : Nodes.postOrder(List.of(n))) {
        if (x instanceof Acc a) carried.set(a.index());
      }
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
   * -1), locals the loop writes are accumulators ({@link Acc}, their value when the iteration starts), the
   * others parameters or invariant references.
   */
  private SymFrame initialFrame(LoopBody body, Frame<BasicValue> frame, BitSet written, int ivar) {
    SymFrame s = new SymFrame(ctx.method.maxLocals, ctx.method.maxStack);
    for (int k = 0; k < frame.getLocals(); k++) {
      BasicValue v = frame.getLocal(k);
      if (v == null || v == BasicValue.UNINITIALIZED_VALUE || v == BasicValue.RETURNADDRESS_VALUE) continue;
      if (k == ivar) {
        s.setLocal(k, SymValue.primitive(Index.I, null));
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

  private BitSet writtenLocals(Cfg.Loop loop) {
    BitSet w = new BitSet();
    for (Cfg.Block b : ctx.cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (int k = b.start; k < b.end; k++) {
        AbstractInsnNode in = ctx.insns[k];
        if (in instanceof IincInsnNode ii) w.set(ii.var);
        else if (in instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) w.set(v.var);
      }
    }
    return w;
  }

  private String localName(int k) {
    if (ctx.method.localVariables != null) {
      for (LocalVariableNode lv : ctx.method.localVariables) {
        if (lv.index == k) return "'" + lv.name + "'";
      }
    }
    return "#" + k;
  }
}
