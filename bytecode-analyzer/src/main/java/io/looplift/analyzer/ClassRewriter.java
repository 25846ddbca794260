package io.looplift.analyzer;

import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Finds the loops of a class file and rewrites each recognized one into guards, a call to
 * {@code io.looplift.bridge.LoopBridge.submit}, and the original loop as fallback, with
 * {@code LoopBridge.sync()} before the read points that follow; consecutive loops that share temporary
 * arrays also get a region fast path ({@link RegionRewriter}). Thread-safe and never throws: any internal
 * error leaves the class unchanged.
 */
public final class ClassRewriter {
  private final RewriteOptions options;
  private final SiteRegistry registry;

  public ClassRewriter(RewriteOptions options, SiteRegistry registry) {
    this.options = options;
    this.registry = registry;
  }

  /**
   * Returns the rewritten class file, or null when the class is to stay as it is (no loop recognized,
   * unsupported class file, or an internal error). Every loop seen is registered, accepted or not; the
   * accepted loops of a class that then cannot be written are registered again as discarded.
   *
   * @param loader the class's defining loader (null for bootstrap), used only to read the bytes of
   *     other classes, never to load them
   */
  public byte[] rewrite(byte[] classfile, ClassLoader loader) {
    List<Integer> accepted = new ArrayList<>();
    try {
      ClassNode cn = read(classfile);
      if (cn == null) return null;
      ClassHierarchy hierarchy = new ClassHierarchy(loader, cn);
      // Every method is analyzed before any is rewritten: an analysis inlines helpers as they were written.
      Map<MethodContext, List<LoopAnalyzer.Result>> analyzed = new LinkedHashMap<>();
      for (MethodNode mn : cn.methods) {
        MethodContext ctx = context(cn, mn, hierarchy);
        if (ctx != null) analyzed.put(ctx, new LoopAnalyzer(ctx).analyze());
      }
      for (Map.Entry<MethodContext, List<LoopAnalyzer.Result>> method : analyzed.entrySet()) {
        MethodContext ctx = method.getKey();
        List<LoopAnalyzer.Plan> plans = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (LoopAnalyzer.Result r : method.getValue()) {
          int id = registry.register(r.site());
          if (r instanceof LoopAnalyzer.Plan p) {
            plans.add(p);
            ids.add(id);
          }
        }
        if (plans.isEmpty()) continue;
        accepted.addAll(ids);
        LoopRewriter.Scratch scratch = LoopRewriter.Scratch.allocate(ctx.method, plans);
        for (RegionRewriter.Region region : RegionRewriter.find(ctx, plans)) {
          List<Integer> regionSites = new ArrayList<>();
          for (LoopAnalyzer.Plan p : region.loops()) regionSites.add(ids.get(plans.indexOf(p)));
          LoopSite first = region.loops().get(0).site();
          int regionId = registry.registerRegion(new RegionSite(first.className(), first.method(), first.descriptor(),
              first.line(), regionSites, region.temporaries().size()));
          RegionRewriter.rewrite(ctx, region, regionId, regionSites.stream().mapToInt(Integer::intValue).toArray(),
              options.minLength(), scratch);
        }
        LoopRewriter.rewrite(ctx, plans, ids.stream().mapToInt(Integer::intValue).toArray(), options.minLength(), scratch);
      }
      if (accepted.isEmpty()) return null;
      int major = cn.version & 0xFFFF;
      ClassWriter cw = new ClassWriter(major >= Opcodes.V1_6 ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS) {
        @Override
        protected String getCommonSuperClass(String a, String b) {
          return hierarchy.commonSuperClass(a, b);
        }
      };
      cn.accept(cw);
      return cw.toByteArray();
    } catch (Throwable t) {
      for (int id : accepted) registry.discard(id, "the class could not be rewritten (" + t + "); it runs unchanged");
      return null;
    }
  }

  /** The loop sites of a class file without rewriting it (for {@code analyze JAR|DIR}); empty when unreadable. */
  public static List<LoopSite> analyze(byte[] classfile, ClassLoader loader) {
    List<LoopSite> sites = new ArrayList<>();
    ClassNode cn;
    try {
      cn = read(classfile);
    } catch (RuntimeException e) {
      return sites;
    }
    if (cn == null) return sites;
    ClassHierarchy hierarchy = new ClassHierarchy(loader, cn);
    for (MethodNode mn : cn.methods) {
      MethodContext ctx = context(cn, mn, hierarchy);
      if (ctx == null) continue;
      for (LoopAnalyzer.Result r : new LoopAnalyzer(ctx).analyze()) sites.add(r.site());
    }
    return sites;
  }

  /** Parses a class file, or returns null for classes that are never rewritten (already rewritten ones). */
  private static ClassNode read(byte[] classfile) {
    ClassReader cr = new ClassReader(classfile);
    ClassNode cn = new ClassNode();
    cr.accept(cn, ClassReader.SKIP_FRAMES);
    for (MethodNode mn : cn.methods) {
      for (AbstractInsnNode in : mn.instructions) {
        if (in instanceof MethodInsnNode mi && mi.owner.equals(LoopBridge.INTERNAL_NAME)) return null;
      }
    }
    return cn;
  }

  /** The analysis context of a method that has a loop, or null for methods without one or not analyzable. */
  private static MethodContext context(ClassNode cn, MethodNode mn, ClassHierarchy hierarchy) {
    if ((mn.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || !hasBackwardJump(mn)) return null;
    for (AbstractInsnNode in : mn.instructions) {
      if (in.getOpcode() == Opcodes.JSR || in.getOpcode() == Opcodes.RET) return null;
    }
    try {
      return new MethodContext(cn, mn, hierarchy);
    } catch (Rejection r) {
      return null;
    }
  }

  private static boolean hasBackwardJump(MethodNode mn) {
    for (AbstractInsnNode in : mn.instructions) {
      if (in instanceof JumpInsnNode j && mn.instructions.indexOf(j.label) < mn.instructions.indexOf(in)) return true;
    }
    return false;
  }
}
