package io.looplift.analyzer;

import io.looplift.bridge.LoopBridge;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Rewrites recognized loops in place. The loop's entry jumps to a preamble at the end of the method:
 * <pre>
 *   pre:      if (!preambleOn()) goto fallback                  (an invokedynamic: see emitSwitch)
 *             limit evaluated; short loops (small nests) counted → fallback     (any exception → fallback)
 *             arrays, scalars evaluated
 *             r = LoopBridge.submit(site, arrays, scalars, i, limit)
 *             if (r == TIMED) goto timed;  if (r != TAKEN) goto fallback
 *             pending = 1 (or, see below, LoopBridge.sync()); accumulators and i = results; goto exit
 *   fallback: if (pending) { LoopBridge.sync(); pending = 0 }; goto header   (the original loop, unchanged)
 *   timed:    if (pending) { LoopBridge.sync(); pending = 0 }; goto the copy of the loop (TimedCopy), whose
 *             exit calls LoopBridge.ran(site) and goes on at exit
 * </pre>
 * and a {@code if (pending) { LoopBridge.sync(); pending = 0 }} goes before the first instruction after the
 * loop that could observe deferred results; plain local-variable code and the next rewritten loop's entry do
 * not count. {@code pending}, a local set to 0 on entry to the method, says whether this activation of the
 * method has handed work to the pipeline since it last synced: only its own loops can have (a call, a
 * return and a throw are read points), so a loop that is never offloaded costs a compare and no call. Where
 * no way from a loop's exit reaches another loop's preamble before its read points (so no work could queue
 * behind its own), the taken path syncs at once instead and the read points get no check: the loop in place
 * then carries nothing after it. A method whose loops all sync at once (and that has no region) never defers
 * work, so it has no {@code pending} at all and its fallback and timed paths check nothing. A loop put back
 * by its switch, inside another loop, runs as it did before the agent only without any such check in the
 * outer loop's path: C2 shapes the outer loop after them even where they are dead code to it (see TimedCopy).
 */
final class LoopRewriter {
  private static final Handle SWITCH_BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, LoopBridge.INTERNAL_NAME,
      LoopBridge.SITE_SWITCH, LoopBridge.SITE_SWITCH_DESC, false);
  private static final Handle SHORT_RUN_BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, LoopBridge.INTERNAL_NAME,
      LoopBridge.SHORT_RUN_COUNTER, LoopBridge.SHORT_RUN_COUNTER_DESC, false);
  private static final Handle INITIALIZED_BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, LoopBridge.INTERNAL_NAME,
      LoopBridge.INITIALIZED_CHECK, LoopBridge.INITIALIZED_CHECK_DESC, false);
  private static final Handle REST_GATE_BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, LoopBridge.INTERNAL_NAME,
      LoopBridge.REST_GATE, LoopBridge.REST_GATE_DESC, false);

  /**
   * Most back edges one taken run gives HotSpot ({@link #emitBackEdges}): past its thresholds for compiling a
   * loop (60,000 interpreted, then 40,000 profiled, by default) in two runs, for at most about a millisecond
   * interpreted.
   */
  static final long BACK_EDGES = 1L << 17;

  private LoopRewriter() {}

  /**
   * @param regionExits the site ids of loops a region's fast path ends at: the region leaves its work pending
   *     at their exits, which therefore keep their read points' checks
   */
  static void rewrite(MethodContext ctx, List<LoopAnalyzer.Plan> plans, int[] siteIds, int minLength, Scratch scratch,
      Set<Integer> regionExits) {
    InsnList il = ctx.method.instructions;
    AbstractInsnNode[] insns = ctx.insns;
    Set<LabelNode> preambles = new HashSet<>();
    LabelNode[] exits = new LabelNode[plans.size()];
    LabelNode[] pres = new LabelNode[plans.size()];
    for (int p = 0; p < plans.size(); p++) {
      LoopAnalyzer.Plan plan = plans.get(p);
      exits[p] = labelAt(il, insns[plan.exit().start]);
      pres[p] = new LabelNode();
      preambles.add(pres[p]);
      redirectEntry(il, insns[plan.preheader().end - 1], (LabelNode) insns[plan.loop().header.start], pres[p]);
    }
    Set<AbstractInsnNode> readPoints = new LinkedHashSet<>();
    boolean[] syncAtOnce = new boolean[plans.size()];
    boolean deferring = !regionExits.isEmpty();
    for (int p = 0; p < plans.size(); p++) {
      Set<AbstractInsnNode> found = new LinkedHashSet<>();
      // Where no way from the exit leads to another loop's preamble before a read point, nothing can queue
      // behind the work taken: it is synced at once, and the way to the read points carries no check.
      syncAtOnce[p] = !readPoints(exits[p], preambles, found) && !regionExits.contains(siteIds[p]);
      if (!syncAtOnce[p]) readPoints.addAll(found);
      deferring |= !syncAtOnce[p];
    }
    if (deferring) {
      InsnList init = new InsnList();
      init.add(new InsnNode(Opcodes.ICONST_0));
      init.add(new VarInsnNode(Opcodes.ISTORE, scratch.pending()));
      il.insert(init);
    }
    for (int p = 0; p < plans.size(); p++) {
      emitPreamble(ctx, plans.get(p), siteIds[p], minLength, pres[p], exitTo(plans, p, exits, pres), scratch,
          syncAtOnce[p], deferring);
    }
    for (AbstractInsnNode in : readPoints) il.insertBefore(in, syncIfPending(scratch));
  }

  /**
   * Where loop {@code p}'s exit leads: its exit block, or the preamble of the loop that block heads (a tail
   * loop that goes on from where an unrolled one stopped, {@code for (; i < n; i++)}), whose entry, the exit
   * edge of {@code p}, was redirected there (unless that loop encloses {@code p}: its header is then entered
   * by a back edge, which stays).
   */
  private static LabelNode exitTo(List<LoopAnalyzer.Plan> plans, int p, LabelNode[] exits, LabelNode[] pres) {
    LoopAnalyzer.Plan from = plans.get(p);
    for (int q = 0; q < plans.size(); q++) {
      Cfg.Loop next = plans.get(q).loop();
      if (next.header == from.exit() && !next.contains(from.loop().header)) return pres[q];
    }
    return exits[p];
  }

  /** A call of the bridge's entry point {@code name}; both strings are {@link LoopBridge}'s own constants. */
  static MethodInsnNode bridgeCall(String name, String desc) {
    return new MethodInsnNode(Opcodes.INVOKESTATIC, LoopBridge.INTERNAL_NAME, name, desc, false);
  }

  static LabelNode labelAt(InsnList il, AbstractInsnNode first) {
    if (first instanceof LabelNode l) return l;
    LabelNode l = new LabelNode();
    il.insertBefore(first, l);
    return l;
  }

  private static void redirectEntry(InsnList il, AbstractInsnNode last, LabelNode header, LabelNode pre) {
    if (last instanceof JumpInsnNode j && j.label == header) {
      j.label = pre;
      if (j.getOpcode() == Opcodes.GOTO) return;
    } else if (last instanceof TableSwitchInsnNode t) {
      t.labels.replaceAll(l -> l == header ? pre : l);
      if (t.dflt == header) t.dflt = pre;
      return;
    } else if (last instanceof LookupSwitchInsnNode t) {
      t.labels.replaceAll(l -> l == header ? pre : l);
      if (t.dflt == header) t.dflt = pre;
      return;
    }
    if (Cfg.fallsThrough(last)) il.insertBefore(header, new JumpInsnNode(Opcodes.GOTO, pre));
  }

  private static void emitPreamble(MethodContext ctx, LoopAnalyzer.Plan plan, int siteId, int minLength, LabelNode pre,
      LabelNode exit, Scratch scratch, boolean syncAtOnce, boolean deferring) {
    InsnList il = ctx.method.instructions;
    LabelNode header = (LabelNode) ctx.insns[plan.loop().header.start];
    LabelNode argsEnd = new LabelNode();
    LabelNode handler = new LabelNode();
    LabelNode fallback = new LabelNode();
    LabelNode timed = new LabelNode();
    il.add(pre);
    // A loop whose exit test moves its variable first (--k >= 0): the launch starts where the first iteration
    // does; the original loop, if it runs instead, starts from the value it had.
    if (plan.headerStep() != 0) il.add(new IincInsnNode(plan.ivar(), plan.headerStep()));
    emitSwitch(ctx, il, siteId, fallback);
    emitArguments(ctx, il, plan, siteId, minLength, scratch, fallback);
    il.add(argsEnd);
    emitSubmit(il, plan, siteId, scratch, fallback, timed);
    emitBackEdges(il, scratch);
    if (syncAtOnce) {
      emitResults(il, plan, scratch);
      il.add(bridgeCall(LoopBridge.SYNC, LoopBridge.SYNC_DESC));
      if (deferring) {
        il.add(new InsnNode(Opcodes.ICONST_0));
        il.add(new VarInsnNode(Opcodes.ISTORE, scratch.pending()));
      }
    } else {
      setPending(il, scratch);
      emitResults(il, plan, scratch);
    }
    il.add(new JumpInsnNode(Opcodes.GOTO, exit));
    il.add(handler);
    il.add(new InsnNode(Opcodes.POP));
    il.add(fallback);
    emitLeaveForOriginal(il, plan, scratch, deferring);
    il.add(new JumpInsnNode(Opcodes.GOTO, header));
    ctx.method.tryCatchBlocks.add(new TryCatchBlockNode(pre, argsEnd, handler, "java/lang/Throwable"));
    // A timed run goes through a copy of the loop that reports its end (see TimedCopy).
    il.add(timed);
    emitLeaveForOriginal(il, plan, scratch, deferring);
    JumpInsnNode toCopy = new JumpInsnNode(Opcodes.GOTO, timed);
    il.add(toCopy);
    toCopy.label = TimedCopy.emit(ctx, plan, siteId, exit);
  }

  /**
   * What the original loop's code (or its timed copy) needs on the way out of the preamble: its variable as
   * it was on entry (see the preamble's first step) and, in a method that defers work, that work synced.
   */
  private static void emitLeaveForOriginal(InsnList il, LoopAnalyzer.Plan plan, Scratch scratch, boolean deferring) {
    if (plan.headerStep() != 0) il.add(new IincInsnNode(plan.ivar(), -plan.headerStep()));
    if (deferring) il.add(syncIfPending(scratch));
  }

  /**
   * {@code if (!preambleOn()) goto fallback}, an {@code invokedynamic} linked by {@link LoopBridge#siteSwitch}
   * that HotSpot compiles as a constant: once the pipeline switches it off the preamble is dead code, and the
   * loop costs what it did before the agent. Class files older than Java 7 cannot have it.
   */
  static void emitSwitch(MethodContext ctx, InsnList il, int siteId, LabelNode fallback) {
    if (!hasInvokeDynamic(ctx)) return;
    il.add(new InvokeDynamicInsnNode(LoopBridge.SWITCH_NAME, LoopBridge.SWITCH_TYPE, SWITCH_BOOTSTRAP, siteId));
    il.add(new JumpInsnNode(Opcodes.IFEQ, fallback));
  }

  /**
   * Counts a short run of the loop ({@link LoopBridge#shortRun}): in class files of Java 7 and later through an
   * {@code invokedynamic} linked by {@link LoopBridge#shortRunCounter}, which HotSpot compiles as nothing once
   * the loop has run long, when the count can no longer put it back.
   */
  private static void emitShortRun(MethodContext ctx, InsnList il, int siteId) {
    if (hasInvokeDynamic(ctx)) {
      il.add(new InvokeDynamicInsnNode(LoopBridge.SHORT_RUN, LoopBridge.SHORT_RUN_TYPE, SHORT_RUN_BOOTSTRAP, siteId));
    } else {
      push(il, siteId);
      il.add(bridgeCall(LoopBridge.SHORT_RUN, LoopBridge.SHORT_RUN_DESC));
    }
  }

  /** Whether the rewritten loops of {@code ctx} open with a switch and count short runs by {@code invokedynamic}. */
  static boolean hasInvokeDynamic(MethodContext ctx) {
    return (ctx.owner.version & 0xFFFF) >= Opcodes.V1_7;
  }

  /**
   * Local slots past the method's own: the limit, the arrays and the scalars of a submit call, the
   * {@code pending} flag (set to 0 on entry to a method that defers work), the loop's length (a long, see
   * {@link #pushIterations}), and {@code estimate} slots for a nest's {@link WorkEstimate}.
   */
  record Scratch(int limit, int arrays, int scalars, int pending, int iterations, int estimate) {
    static Scratch allocate(MethodNode method, List<LoopAnalyzer.Plan> plans) {
      int first = method.maxLocals;
      int estimateSlots = 0;
      for (LoopAnalyzer.Plan p : plans) estimateSlots = Math.max(estimateSlots, WorkEstimate.slots(p.site().template()));
      method.maxLocals += 6 + estimateSlots;
      return new Scratch(first, first + 1, first + 2, first + 3, first + 4, first + 6);
    }
  }

  /** Records that this activation of the method has work in the pipeline. */
  static void setPending(InsnList il, Scratch scratch) {
    il.add(new InsnNode(Opcodes.ICONST_1));
    il.add(new VarInsnNode(Opcodes.ISTORE, scratch.pending()));
  }

  /** {@code if (pending) { LoopBridge.sync(); pending = 0; }} */
  static InsnList syncIfPending(Scratch scratch) {
    InsnList il = new InsnList();
    LabelNode done = new LabelNode();
    il.add(new VarInsnNode(Opcodes.ILOAD, scratch.pending()));
    il.add(new JumpInsnNode(Opcodes.IFEQ, done));
    il.add(bridgeCall(LoopBridge.SYNC, LoopBridge.SYNC_DESC));
    il.add(new InsnNode(Opcodes.ICONST_0));
    il.add(new VarInsnNode(Opcodes.ISTORE, scratch.pending()));
    il.add(done);
    return il;
  }

  /**
   * Evaluates a loop's limit, length, arrays and scalars into {@code scratch} at the loop's entry (the recipes may
   * throw, as the original code would); jumps to {@code decline} when the loop is shorter than
   * {@code minLength} (a run {@link LoopBridge#shortRun} counts), when a class whose static initializer an
   * inlined call would run is not initialized yet (the original loop then makes that call), or when a call on
   * an object whose method is inlined would not run the declaration analyzed, its class overriding it (a null
   * one throws here, and the handler around this code runs the original loop).
   */
  static void emitArguments(MethodContext ctx, InsnList il, LoopAnalyzer.Plan plan, int siteId, int minLength,
      Scratch scratch, LabelNode decline) {
    // The class checks cost a bridge call, which a loop too short to offload should not pay; but they must
    // come before any recipe that reads a static field of another class (which would initialize it), and
    // a nest's work estimate evaluates its recipes. (The limit's recipe is the original exit test's, which
    // Java evaluates before the first iteration all the same.)
    boolean checkClassesFirst = !plan.site().template().isFlat() && readsStaticFieldOfAnotherClass(plan);
    if (checkClassesFirst) emitInitializedChecks(ctx, il, plan, siteId, decline);
    copy(il, plan.limitRecipe());
    il.add(new VarInsnNode(Opcodes.ISTORE, scratch.limit()));
    // Here, where any exception a nest's estimate throws declines the loop: the taken path reads it too.
    pushIterations(il, plan, scratch);
    il.add(new VarInsnNode(Opcodes.LSTORE, scratch.iterations()));
    if (minLength > 0) {
      // Loops shorter than min.length, and nests running fewer innermost iterations, are not worth a dispatch.
      il.add(new VarInsnNode(Opcodes.LLOAD, scratch.iterations()));
      il.add(new LdcInsnNode((long) minLength));
      il.add(new InsnNode(Opcodes.LCMP));
      // Counted, so that a loop that only ever runs short can be put back as it was (LoopBridge.shortRun).
      LabelNode longEnough = new LabelNode();
      il.add(new JumpInsnNode(Opcodes.IFGE, longEnough));
      emitShortRun(ctx, il, siteId);
      il.add(new JumpInsnNode(Opcodes.GOTO, decline));
      il.add(longEnough);
      if (hasInvokeDynamic(ctx)) emitRestGate(il, siteId, scratch, decline);
    }
    if (!checkClassesFirst) emitInitializedChecks(ctx, il, plan, siteId, decline);
    for (LoopBody.VirtualTarget v : plan.virtualTargets()) {
      push(il, siteId);
      copy(il, v.recipe());
      il.add(new LdcInsnNode(v.holder().replace('/', '.')));
      il.add(new LdcInsnNode(v.method()));
      il.add(bridgeCall(LoopBridge.DISPATCHES, LoopBridge.DISPATCHES_DESC));
      il.add(new JumpInsnNode(Opcodes.IFEQ, decline));
    }
    List<List<AbstractInsnNode>> arrays = plan.arrayRecipes();
    push(il, arrays.size());
    il.add(new TypeInsnNode(Opcodes.ANEWARRAY, "java/lang/Object"));
    for (int k = 0; k < arrays.size(); k++) {
      il.add(new InsnNode(Opcodes.DUP));
      push(il, k);
      copy(il, arrays.get(k));
      il.add(new InsnNode(Opcodes.AASTORE));
    }
    il.add(new VarInsnNode(Opcodes.ASTORE, scratch.arrays()));
    List<io.looplift.ir.Type> paramTypes = plan.site().template().params();
    int nParams = paramTypes.size();
    push(il, nParams + plan.accLocals().length + 1);
    il.add(new IntInsnNode(Opcodes.NEWARRAY, Opcodes.T_LONG));
    for (int k = 0; k < nParams; k++) {
      il.add(new InsnNode(Opcodes.DUP));
      push(il, k);
      copy(il, plan.paramRecipes().get(k));
      toBits(il, paramTypes.get(k));
      il.add(new InsnNode(Opcodes.LASTORE));
    }
    for (int j = 0; j < plan.accLocals().length; j++) {
      io.looplift.ir.Type t = plan.accTypes().get(j);
      il.add(new InsnNode(Opcodes.DUP));
      push(il, nParams + j);
      il.add(new VarInsnNode(LoopAnalyzer.loadOpcode(t), plan.accLocals()[j]));
      toBits(il, t);
      il.add(new InsnNode(Opcodes.LASTORE));
    }
    // The last slot, where a taken run's results end, carries the run's length in: what LoopBridge.rest bounds.
    il.add(new InsnNode(Opcodes.DUP));
    push(il, nParams + plan.accLocals().length);
    il.add(new VarInsnNode(Opcodes.LLOAD, scratch.iterations()));
    il.add(new InsnNode(Opcodes.LASTORE));
    il.add(new VarInsnNode(Opcodes.ASTORE, scratch.scalars()));
  }

  /**
   * The gate of a run long enough to be offered ({@link LoopBridge#restGate}): on to the offer while its site
   * rests no runs, to {@code decline} while it rests runs this long; a longer run tells the bridge, which offers
   * the site's runs again, and is offered. Three {@code invokedynamic}s, unlinked until a run needs them, so that
   * C2 compiles what follows each only once a run has come this far (C2 compiles a path that never ran when its
   * branch has run fewer than 40 times, and a call on it kept a nest's arrays on the stack); the first two
   * constants to C2 once linked, so that the offer's path is dead code while the site rests.
   */
  private static void emitRestGate(InsnList il, int siteId, Scratch scratch, LabelNode decline) {
    LabelNode offer = new LabelNode();
    il.add(new InvokeDynamicInsnNode(LoopBridge.OFFERING, LoopBridge.OFFERING_TYPE, REST_GATE_BOOTSTRAP, siteId));
    il.add(new JumpInsnNode(Opcodes.IFNE, offer));
    il.add(new VarInsnNode(Opcodes.LLOAD, scratch.iterations()));
    il.add(new InvokeDynamicInsnNode(LoopBridge.RESTED_UP_TO, LoopBridge.RESTED_UP_TO_TYPE, REST_GATE_BOOTSTRAP, siteId));
    il.add(new InsnNode(Opcodes.LCMP));
    il.add(new JumpInsnNode(Opcodes.IFLE, decline));
    il.add(new InvokeDynamicInsnNode(LoopBridge.RAN_LONGER, LoopBridge.RAN_LONGER_TYPE, REST_GATE_BOOTSTRAP, siteId));
    il.add(offer);
  }

  /**
   * Pushes, as a long, the loop's length about to run: how far its variable is from the limit in
   * {@code scratch} (its trips when it steps by one), or for a nest an estimate of its innermost iterations
   * ({@link WorkEstimate}).
   */
  private static void pushIterations(InsnList il, LoopAnalyzer.Plan plan, Scratch scratch) {
    if (plan.site().template().isFlat()) {
      il.add(new VarInsnNode(Opcodes.ILOAD, scratch.limit()));
      il.add(new InsnNode(Opcodes.I2L));
      il.add(new VarInsnNode(Opcodes.ILOAD, plan.ivar()));
      il.add(new InsnNode(Opcodes.I2L));
      il.add(new InsnNode(Opcodes.LSUB));
      il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Math", "abs", "(J)J", false));
    } else {
      WorkEstimate.emit(plan, il, scratch.limit(), scratch.estimate());
    }
  }

  /**
   * On the taken path: an empty counted loop as long as the offloaded loop (its length, which
   * {@link #emitArguments} stored), at most {@link #BACK_EDGES} iterations. HotSpot compiles a method
   * once its invocations and loop back edges add up; a method whose long loop now runs elsewhere has few of
   * either, and would stay in the interpreter with everything else it does: Commons Math's {@code ebeMultiply}
   * then spent 1.5 ms more on each 4M-double {@code a.clone()}, which interpreted zeroes the copy before
   * filling it. These back edges get the method compiled as it was without the agent, each cheaper than one
   * of the original loop's own; C2 then removes the empty loop.
   */
  static void emitBackEdges(InsnList il, Scratch scratch) {
    il.add(new VarInsnNode(Opcodes.LLOAD, scratch.iterations()));
    LongMinMax.atMost(il, BACK_EDGES);
    il.add(new InsnNode(Opcodes.L2I));
    il.add(new VarInsnNode(Opcodes.ISTORE, scratch.limit()));
    LabelNode test = new LabelNode();
    LabelNode done = new LabelNode();
    il.add(test);
    il.add(new VarInsnNode(Opcodes.ILOAD, scratch.limit()));
    il.add(new JumpInsnNode(Opcodes.IFLE, done));
    il.add(new IincInsnNode(scratch.limit(), -1));
    il.add(new JumpInsnNode(Opcodes.GOTO, test));
    il.add(done);
  }

  /**
   * One check per class ({@link LoopBridge#initialized}), in class files of Java 7 and later by
   * {@code invokedynamic}.
   */
  private static void emitInitializedChecks(MethodContext ctx, InsnList il, LoopAnalyzer.Plan plan, int siteId,
      LabelNode decline) {
    for (String c : plan.initializedClasses()) {
      if (hasInvokeDynamic(ctx)) {
        il.add(new InvokeDynamicInsnNode(LoopBridge.CLASS_INITIALIZED, LoopBridge.CLASS_INITIALIZED_TYPE,
            INITIALIZED_BOOTSTRAP, siteId, Type.getObjectType(c)));
      } else {
        push(il, siteId);
        il.add(new LdcInsnNode(Type.getObjectType(c)));
        il.add(bridgeCall(LoopBridge.INITIALIZED, LoopBridge.INITIALIZED_DESC));
      }
      il.add(new JumpInsnNode(Opcodes.IFEQ, decline));
    }
  }

  private static boolean readsStaticFieldOfAnotherClass(LoopAnalyzer.Plan plan) {
    String self = plan.site().className().replace('.', '/');
    for (List<List<AbstractInsnNode>> recipes : List.of(plan.paramRecipes(), plan.arrayRecipes())) {
      for (List<AbstractInsnNode> recipe : recipes) {
        for (AbstractInsnNode in : recipe) {
          if (in.getOpcode() == Opcodes.GETSTATIC && !((FieldInsnNode) in).owner.equals(self)) return true;
        }
      }
    }
    return false;
  }

  /**
   * Calls {@code LoopBridge.submit} with the evaluated arguments; jumps to {@code decline} unless it returns
   * {@link LoopBridge#TAKEN}, or to {@code timed} when it returns {@link LoopBridge#TIMED}; with no
   * {@code timed} (inside a region, whose code runs as a whole), that declines too.
   */
  static void emitSubmit(InsnList il, LoopAnalyzer.Plan plan, int siteId, Scratch scratch, LabelNode decline,
      LabelNode timed) {
    push(il, siteId);
    il.add(new VarInsnNode(Opcodes.ALOAD, scratch.arrays()));
    il.add(new VarInsnNode(Opcodes.ALOAD, scratch.scalars()));
    il.add(new VarInsnNode(Opcodes.ILOAD, plan.ivar()));
    il.add(new VarInsnNode(Opcodes.ILOAD, scratch.limit()));
    il.add(bridgeCall(LoopBridge.SUBMIT, LoopBridge.SUBMIT_DESC));
    if (timed == null) {
      push(il, LoopBridge.TAKEN);
      il.add(new JumpInsnNode(Opcodes.IF_ICMPNE, decline));
      return;
    }
    LabelNode taken = new LabelNode();
    il.add(new InsnNode(Opcodes.DUP));
    push(il, LoopBridge.TAKEN);
    il.add(new JumpInsnNode(Opcodes.IF_ICMPEQ, taken));
    push(il, LoopBridge.TIMED);
    il.add(new JumpInsnNode(Opcodes.IF_ICMPEQ, timed));
    il.add(new JumpInsnNode(Opcodes.GOTO, decline));
    il.add(taken);
    il.add(new InsnNode(Opcodes.POP));
  }

  /** Stores the accumulators' results and the induction variable's final value from the scalars. */
  static void emitResults(InsnList il, LoopAnalyzer.Plan plan, Scratch scratch) {
    int nParams = plan.site().template().params().size();
    for (int j = 0; j < plan.accLocals().length; j++) {
      io.looplift.ir.Type t = plan.accTypes().get(j);
      il.add(new VarInsnNode(Opcodes.ALOAD, scratch.scalars()));
      push(il, nParams + j);
      il.add(new InsnNode(Opcodes.LALOAD));
      fromBits(il, t);
      il.add(new VarInsnNode(storeOpcode(t), plan.accLocals()[j]));
    }
    il.add(new VarInsnNode(Opcodes.ALOAD, scratch.scalars()));
    push(il, nParams + plan.accLocals().length);
    il.add(new InsnNode(Opcodes.LALOAD));
    il.add(new InsnNode(Opcodes.L2I));
    il.add(new VarInsnNode(Opcodes.ISTORE, plan.ivar()));
  }

  private static void copy(InsnList il, List<AbstractInsnNode> recipe) {
    for (AbstractInsnNode in : recipe) il.add(in.clone(Map.of()));
  }

  static void pushLong(InsnList il, long v) {
    if (v == 0 || v == 1) il.add(new InsnNode(Opcodes.LCONST_0 + (int) v));
    else il.add(new LdcInsnNode(v));
  }

  static void push(InsnList il, int v) {
    if (v >= -1 && v <= 5) il.add(new InsnNode(Opcodes.ICONST_0 + v));
    else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) il.add(new IntInsnNode(Opcodes.BIPUSH, v));
    else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) il.add(new IntInsnNode(Opcodes.SIPUSH, v));
    else il.add(new LdcInsnNode(v));
  }

  private static void toBits(InsnList il, io.looplift.ir.Type t) {
    switch (t) {
      case LONG -> { }
      case FLOAT -> {
        il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false));
        il.add(new InsnNode(Opcodes.I2L));
      }
      case DOUBLE -> il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false));
      default -> il.add(new InsnNode(Opcodes.I2L));
    }
  }

  private static void fromBits(InsnList il, io.looplift.ir.Type t) {
    switch (t) {
      case LONG -> { }
      case FLOAT -> {
        il.add(new InsnNode(Opcodes.L2I));
        il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false));
      }
      case DOUBLE -> il.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double", "longBitsToDouble", "(J)D", false));
      default -> il.add(new InsnNode(Opcodes.L2I));
    }
  }

  private static int storeOpcode(io.looplift.ir.Type t) {
    return LoopAnalyzer.loadOpcode(t) - Opcodes.ILOAD + Opcodes.ISTORE;
  }

  /**
   * Adds to {@code found} the read points after {@code exit}: the first instruction on every path from there
   * that could observe deferred work, where a sync goes. The paths run through local-only code, its jumps and
   * branches (a time-step loop around rewritten loops goes back to the next one's preamble without a sync, so
   * that its steps queue together) and end at a rewritten loop's preamble, which needs none; returns whether
   * one does.
   */
  private static boolean readPoints(LabelNode exit, Set<LabelNode> preambles, Set<AbstractInsnNode> found) {
    boolean preamble = false;
    Deque<AbstractInsnNode> paths = new ArrayDeque<>(List.of(exit));
    Set<AbstractInsnNode> seen = new HashSet<>();
    while (!paths.isEmpty()) {
      for (AbstractInsnNode in = paths.pop(); in != null && seen.add(in); in = in.getNext()) {
        if (in instanceof LabelNode l && preambles.contains(l)) {
          preamble = true;
          break;
        }
        int op = in.getOpcode();
        if (op < 0) continue;
        if (op == Opcodes.GOTO) {
          paths.push(((JumpInsnNode) in).label);
          break;
        }
        if (isLocalBranch(op)) {
          paths.push(((JumpInsnNode) in).label);
          continue;
        }
        if (isLocalOnly(in)) continue;
        found.add(in);
        break;
      }
    }
    return preamble;
  }

  /** Conditional jumps on values of the operand stack: they touch nothing else and cannot throw. */
  private static boolean isLocalBranch(int op) {
    return (op >= Opcodes.IFEQ && op <= Opcodes.IF_ACMPNE) || op == Opcodes.IFNULL || op == Opcodes.IFNONNULL;
  }

  /** Instructions that touch only locals and the operand stack and cannot throw. */
  static boolean isLocalOnly(AbstractInsnNode in) {
    int op = in.getOpcode();
    if (op == Opcodes.IDIV || op == Opcodes.LDIV || op == Opcodes.IREM || op == Opcodes.LREM) return false;
    if (op == Opcodes.LDC) return !(((LdcInsnNode) in).cst instanceof org.objectweb.asm.Type);
    return (op >= Opcodes.NOP && op <= Opcodes.SIPUSH) || (op >= Opcodes.ILOAD && op <= Opcodes.ALOAD)
        || (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) || (op >= Opcodes.POP && op <= Opcodes.DCMPG);
  }
}
