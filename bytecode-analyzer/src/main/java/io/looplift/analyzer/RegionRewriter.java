package io.looplift.analyzer;

import io.looplift.bridge.LoopBridge;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Finds <em>regions</em>: runs of consecutive map loops, with only local code between them, that use
 * <em>temporaries</em> (arrays the region allocates, passes only to its loops, and leaves dead), and gives
 * each region a fast path that never allocates its temporaries:
 * <pre>
 *   S:        goto copy                  (S: where the region starts, with an empty operand stack)
 *   orig:     the original region, its loops rewritten as usual
 *   exit:     ...
 *   copy:     save the locals the region writes
 *             LoopBridge.beginRegion(id)
 *             the region's local code, with each temporary's newarray replaced by
 *             LoopBridge.temp(length, type), and each loop by its submit call (declined: abort)
 *             if (LoopBridge.endRegion()) goto exit
 *   abort:    LoopBridge.abortRegion(); restore the saved locals; goto orig
 *   handler:  (any Throwable thrown in the copy) pop; goto abort
 * </pre>
 * The copy changes nothing but locals: the pipeline records its loops and checks every guard at
 * {@code endRegion}. So when anything fails, the original code runs from the start of the region,
 * allocations and all, exactly as without the agent.
 */
final class RegionRewriter {
  private static final int MIN_LOOPS = 2;

  private RegionRewriter() {}

  /**
   * One region: its start instruction and its parts in program order, each either local code (a range of
   * instruction indexes) or a loop.
   */
  record Region(int start, List<Object> parts, List<LoopAnalyzer.Plan> loops, Set<AbstractInsnNode> temporaries,
      BitSet written) {}

  /** Local code of a region: instructions {@code [from, to)}, without a final goto to the next part. */
  private record Code(int from, int to) {}

  /** The regions among {@code plans}, which must all belong to {@code ctx}'s method. */
  static List<Region> find(MethodContext ctx, List<LoopAnalyzer.Plan> plans) {
    List<LoopAnalyzer.Plan> maps = new ArrayList<>();
    for (LoopAnalyzer.Plan p : plans) {
      // Regions fuse their loops: flat maps only, entered as javac lays out a for loop (no move in the test).
      if (p.accLocals().length == 0 && p.site().template().isFlat() && p.headerStep() == 0) maps.add(p);
    }
    maps.sort(Comparator.comparingInt(p -> p.loop().header.start));
    List<Region> regions = new ArrayList<>();
    Set<LoopAnalyzer.Plan> used = new HashSet<>();
    for (LoopAnalyzer.Plan first : maps) {
      if (used.contains(first)) continue;
      Region r = regionFrom(ctx, first, maps);
      if (r == null) continue;
      used.addAll(r.loops());
      regions.add(r);
    }
    return regions;
  }

  private static Region regionFrom(MethodContext ctx, LoopAnalyzer.Plan first, List<LoopAnalyzer.Plan> maps) {
    Cfg.Block pre = first.preheader();
    int start = startIn(ctx, pre);
    if (start < 0) return null;
    List<Object> parts = new ArrayList<>();
    List<LoopAnalyzer.Plan> loops = new ArrayList<>();
    parts.add(codeOf(ctx, start, pre, first.loop().header));
    parts.add(first);
    loops.add(first);
    while (true) {
      List<Object> between = new ArrayList<>();
      LoopAnalyzer.Plan next = follower(ctx, loops.get(loops.size() - 1), maps, between);
      if (next == null || loops.contains(next)) break;
      parts.addAll(between);
      parts.add(next);
      loops.add(next);
    }
    if (loops.size() < MIN_LOOPS) return null;
    BitSet written = new BitSet();
    for (Object part : parts) {
      if (part instanceof Code c) {
        for (int k = c.from(); k < c.to(); k++) markWrite(ctx.insns[k], written);
      } else {
        written.set(((LoopAnalyzer.Plan) part).ivar());
      }
    }
    Set<AbstractInsnNode> temporaries = temporaries(ctx, parts, loops);
    if (temporaries.isEmpty()) return null;
    return new Region(start, parts, loops, temporaries, written);
  }

  /**
   * Where a region can start in the block before its first loop: after the block's last instruction that
   * a region cannot copy, at a point with an empty operand stack. -1 when there is no such point.
   */
  private static int startIn(MethodContext ctx, Cfg.Block pre) {
    int from = pre.start;
    for (int k = pre.start; k < pre.end; k++) {
      if (!copyable(ctx.insns[k]) && !(k == pre.end - 1 && ctx.insns[k].getOpcode() == Opcodes.GOTO)) from = k + 1;
    }
    for (int k = from; k < pre.end; k++) {
      if (ctx.insns[k].getOpcode() < 0) continue;
      Frame<BasicValue> f = ctx.frames[k];
      if (f != null && f.getStackSize() == 0) return k;
    }
    return -1;
  }

  /**
   * The loop that follows {@code loop} through a straight chain of copyable blocks, each entered only from
   * the one before, adding those blocks' code to {@code between}; null when there is none.
   */
  private static LoopAnalyzer.Plan follower(MethodContext ctx, LoopAnalyzer.Plan loop, List<LoopAnalyzer.Plan> maps,
      List<Object> between) {
    Cfg.Block b = loop.exit();
    Cfg.Block from = loop.loop().header;
    for (int guard = 0; guard < ctx.cfg.blocks.size(); guard++) {
      if (b.preds.size() != 1 || b.preds.get(0) != from || b.succs.size() != 1) return null;
      Cfg.Block succ = b.succs.get(0);
      for (LoopAnalyzer.Plan p : maps) {
        if (p.loop().header == succ) {
          if (p.preheader() != b) return null;
          between.add(codeOf(ctx, b.start, b, succ));
          return between.stream().allMatch(c -> isCopyable(ctx, (Code) c)) ? p : null;
        }
      }
      between.add(codeOf(ctx, b.start, b, succ));
      from = b;
      b = succ;
    }
    return null;
  }

  /** The code of block {@code b} from {@code start}, leaving out a final goto to {@code next}. */
  private static Code codeOf(MethodContext ctx, int start, Cfg.Block b, Cfg.Block next) {
    AbstractInsnNode last = ctx.insns[b.end - 1];
    boolean jumps = last instanceof JumpInsnNode j && j.getOpcode() == Opcodes.GOTO
        && ctx.method.instructions.indexOf(j.label) == next.start;
    return new Code(start, jumps ? b.end - 1 : b.end);
  }

  private static boolean isCopyable(MethodContext ctx, Code c) {
    for (int k = c.from(); k < c.to(); k++) {
      if (!copyable(ctx.insns[k])) return false;
    }
    return true;
  }

  /**
   * Instructions a region's copy may contain: they touch only locals and the operand stack, or allocate a
   * primitive array. Those that may throw (division, arraylength, newarray) make the copy abort.
   */
  private static boolean copyable(AbstractInsnNode in) {
    int op = in.getOpcode();
    return op < 0 || LoopRewriter.isLocalOnly(in) || op == Opcodes.IDIV || op == Opcodes.LDIV || op == Opcodes.IREM
        || op == Opcodes.LREM || op == Opcodes.ARRAYLENGTH || op == Opcodes.NEWARRAY;
  }

  private static void markWrite(AbstractInsnNode in, BitSet written) {
    if (in instanceof VarInsnNode v && v.getOpcode() >= Opcodes.ISTORE && v.getOpcode() <= Opcodes.ASTORE) {
      written.set(v.var);
    } else if (in instanceof IincInsnNode ii) {
      written.set(ii.var);
    }
  }

  /**
   * The {@code newarray} instructions of the region's temporaries: each stored into a local that the region
   * assigns nowhere else, that its local code never reads, that its loops use only as a whole array
   * argument (not in a limit or a scalar), and that is dead after the region.
   */
  private static Set<AbstractInsnNode> temporaries(MethodContext ctx, List<Object> parts, List<LoopAnalyzer.Plan> loops) {
    Set<AbstractInsnNode> result = new HashSet<>();
    LoopAnalyzer.Plan last = loops.get(loops.size() - 1);
    BitSet liveAfter = Liveness.liveAtEntry(ctx, last.exit());
    for (Object part : parts) {
      if (!(part instanceof Code c)) continue;
      for (int k = c.from(); k + 1 < c.to(); k++) {
        if (ctx.insns[k].getOpcode() != Opcodes.NEWARRAY) continue;
        AbstractInsnNode next = ctx.insns[k + 1];
        if (!(next instanceof VarInsnNode v) || v.getOpcode() != Opcodes.ASTORE) continue;
        if (!liveAfter.get(v.var) && onlyLoopArray(ctx, parts, v.var)) result.add(ctx.insns[k]);
      }
    }
    return result;
  }

  private static boolean onlyLoopArray(MethodContext ctx, List<Object> parts, int local) {
    int stores = 0;
    for (Object part : parts) {
      if (part instanceof Code c) {
        for (int k = c.from(); k < c.to(); k++) {
          AbstractInsnNode in = ctx.insns[k];
          if (in instanceof VarInsnNode v && v.var == local) {
            if (v.getOpcode() == Opcodes.ASTORE) stores++;
            else return false;
          } else if (in instanceof IincInsnNode ii && ii.var == local) {
            return false;
          }
        }
        continue;
      }
      LoopAnalyzer.Plan p = (LoopAnalyzer.Plan) part;
      if (reads(p.limitRecipe(), local)) return false;
      for (List<AbstractInsnNode> recipe : p.paramRecipes()) {
        if (reads(recipe, local)) return false;
      }
      for (List<AbstractInsnNode> recipe : p.arrayRecipes()) {
        if (reads(recipe, local) && recipe.size() != 1) return false;
      }
      for (Cfg.Block b : ctx.cfg.blocks) {
        if (!p.loop().contains(b)) continue;
        for (int k = b.start; k < b.end; k++) {
          if (ctx.insns[k] instanceof VarInsnNode v && v.var == local && v.getOpcode() != Opcodes.ALOAD) return false;
        }
      }
    }
    return stores == 1;
  }

  private static boolean reads(List<AbstractInsnNode> recipe, int local) {
    for (AbstractInsnNode in : recipe) {
      if (in instanceof VarInsnNode v && v.var == local) return true;
    }
    return false;
  }

  /**
   * Gives {@code region} its fast path. Must run before {@link LoopRewriter} changes the method: the copy is
   * made of the original instructions.
   *
   * @param siteIds the site id of each of the region's loops, in order
   */
  static void rewrite(MethodContext ctx, Region region, int regionId, int[] siteIds, int minLength,
      LoopRewriter.Scratch scratch) {
    InsnList il = ctx.method.instructions;
    AbstractInsnNode[] insns = ctx.insns;
    LabelNode entry = new LabelNode();
    LabelNode copy = new LabelNode();
    LabelNode copyEnd = new LabelNode();
    LabelNode handler = new LabelNode();
    LabelNode abort = new LabelNode();
    LabelNode orig = new LabelNode();
    LoopAnalyzer.Plan last = region.loops().get(region.loops().size() - 1);
    LabelNode exit = LoopRewriter.labelAt(il, insns[last.exit().start]);
    il.insertBefore(insns[region.start()], orig);
    il.insertBefore(orig, new JumpInsnNode(Opcodes.GOTO, entry));

    Frame<BasicValue> atStart = ctx.frames[region.start()];
    List<int[]> saved = new ArrayList<>(); // {local, save slot, load opcode}
    BitSet w = region.written();
    for (int k = w.nextSetBit(0); k >= 0; k = w.nextSetBit(k + 1)) {
      if (k >= atStart.getLocals()) break;
      int load = loadOpcode(atStart.getLocal(k));
      if (load < 0) continue;
      int slot = ctx.method.maxLocals;
      ctx.method.maxLocals += load == Opcodes.LLOAD || load == Opcodes.DLOAD ? 2 : 1;
      saved.add(new int[] {k, slot, load});
    }

    il.add(entry);
    // Once its first loop is put back (only ever short), the region's code is skipped too.
    LoopRewriter.emitSwitch(ctx, il, siteIds[0], orig);
    for (int[] s : saved) {
      il.add(new VarInsnNode(s[2], s[0]));
      il.add(new VarInsnNode(s[2] - Opcodes.ILOAD + Opcodes.ISTORE, s[1]));
    }
    // The handler covers only code after the saves, so the saved copies are defined wherever it runs.
    il.add(copy);
    LoopRewriter.push(il, regionId);
    il.add(LoopRewriter.bridgeCall(LoopBridge.BEGIN_REGION, LoopBridge.BEGIN_REGION_DESC));
    int loop = 0;
    for (Object part : region.parts()) {
      if (part instanceof Code c) {
        for (int k = c.from(); k < c.to(); k++) {
          AbstractInsnNode in = insns[k];
          if (in.getOpcode() < 0) continue;
          if (region.temporaries().contains(in)) {
            LoopRewriter.push(il, ((org.objectweb.asm.tree.IntInsnNode) in).operand);
            il.add(LoopRewriter.bridgeCall(LoopBridge.TEMP, LoopBridge.TEMP_DESC));
          } else {
            il.add(in.clone(Map.of()));
          }
        }
      } else {
        LoopAnalyzer.Plan p = (LoopAnalyzer.Plan) part;
        int siteId = siteIds[loop++];
        LoopRewriter.emitArguments(ctx, il, p, siteId, minLength, scratch, abort);
        LoopRewriter.emitSubmit(il, p, siteId, scratch, abort, null);
        LoopRewriter.emitBackEdges(il, scratch);
        LoopRewriter.emitResults(il, p, scratch);
      }
    }
    il.add(LoopRewriter.bridgeCall(LoopBridge.END_REGION, LoopBridge.END_REGION_DESC));
    il.add(new JumpInsnNode(Opcodes.IFEQ, abort));
    LoopRewriter.setPending(il, scratch);
    il.add(new JumpInsnNode(Opcodes.GOTO, exit));
    il.add(copyEnd);
    il.add(handler);
    il.add(new InsnNode(Opcodes.POP));
    il.add(abort);
    il.add(LoopRewriter.bridgeCall(LoopBridge.ABORT_REGION, LoopBridge.ABORT_REGION_DESC));
    for (int[] s : saved) {
      il.add(new VarInsnNode(s[2], s[1]));
      il.add(new VarInsnNode(s[2] - Opcodes.ILOAD + Opcodes.ISTORE, s[0]));
    }
    il.add(new JumpInsnNode(Opcodes.GOTO, orig));
    ctx.method.tryCatchBlocks.add(new TryCatchBlockNode(copy, copyEnd, handler, "java/lang/Throwable"));
  }

  /** The load opcode for a local of this type at the region's start, or -1 when it holds no value. */
  private static int loadOpcode(BasicValue v) {
    if (v == null || v == BasicValue.UNINITIALIZED_VALUE || v == BasicValue.RETURNADDRESS_VALUE) return -1;
    if (v.isReference()) return Opcodes.ALOAD;
    return LoopAnalyzer.loadOpcode(LoopAnalyzer.irType(v));
  }
}
