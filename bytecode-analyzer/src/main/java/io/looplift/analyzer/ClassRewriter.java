package io.looplift.analyzer;

import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Finds the loops of a class file and rewrites each recognized one into guards, a call to
 * {@code io.looplift.bridge.LoopBridge.submit}, and the original loop as fallback, with
 * {@code LoopBridge.sync()} before the read points that follow; consecutive loops that share temporary
 * arrays also get a region fast path ({@link RegionRewriter}). Only the methods {@link LoopPrescan} finds
 * a loop over arrays in are analyzed; a class without one is passed over without building anything.
 * Thread-safe and never throws: any internal error leaves the class unchanged.
 */
public final class ClassRewriter {
  private static final String ANALYZED_LATE = "its class was loaded before this loop was analyzed (the pre-scan,"
      + " or earlier runs of the same class file, expected it rejected, or saw its loops go unreached), so it runs"
      + " as it is";
  private static final String TOO_LARGE = "rewriting its method would take it past " + MethodSize.HUGE_METHOD_LIMIT
      + " bytes of bytecode, the most HotSpot compiles (-XX:HugeMethodLimit): the method runs as it is";

  private static final String ORDERED_SUM = "runs in Java's order whole: a floating-point reduction under"
      + " reductions=ordered leaves no loop of it to split, so no executor would beat the original"
      + " (reductions=reassociate, or an explicit min.length, offloads it)";
  private static final String SEQUENTIAL = "runs in Java's order whole: each iteration needs what the one before"
      + " left (a reduction other than a sum, product, minimum or maximum, or a store that reads an accumulator),"
      + " so no executor would beat the original (an explicit min.length offloads it)";

  private final RewriteOptions options;
  private final SiteRegistry registry;
  private final Executor later; // null: every loop is analyzed before rewrite returns
  private final Implementations implementations;
  private final AnalysisMemo memo;

  /** A rewriter that analyzes every loop of a class before {@link #rewrite} returns. */
  public ClassRewriter(RewriteOptions options, SiteRegistry registry) {
    this(options, registry, (Executor) null, Implementations.NONE);
  }

  /**
   * A rewriter whose {@link #rewrite} returns once the loops that may be offloaded are analyzed and
   * rewritten, and hands {@code later} the analysis of the others: loops the pre-scan found an
   * instruction in that the analyzer always rejects, which the report needs only for their reasons.
   * {@code later} runs each task at most once, on any thread, whenever it likes (say, when a report is
   * made); until then the report lacks those loops.
   */
  public ClassRewriter(RewriteOptions options, SiteRegistry registry, Executor later) {
    this(options, registry, Objects.requireNonNull(later, "later"), Implementations.NONE);
  }

  /**
   * A rewriter as {@link #ClassRewriter(RewriteOptions, SiteRegistry, Executor)} (or, with a null
   * {@code later}, one that analyzes every loop at once) that inlines calls of abstract methods into the
   * implementations {@code implementations} knows of, and tells it which it wanted.
   */
  public ClassRewriter(RewriteOptions options, SiteRegistry registry, Executor later, Implementations implementations) {
    this(options, registry, later, implementations, AnalysisMemo.NONE);
  }

  /**
   * A rewriter as {@link #ClassRewriter(RewriteOptions, SiteRegistry, Executor, Implementations)} that, given a
   * {@code later}, analyzes at once only the methods {@code memo} remembers as worth it (all of them for a
   * class file it does not know, which it is then told about) and hands {@code later} the others.
   */
  public ClassRewriter(RewriteOptions options, SiteRegistry registry, Executor later, Implementations implementations,
      AnalysisMemo memo) {
    this.options = options;
    this.registry = registry;
    this.later = later;
    this.implementations = Objects.requireNonNull(implementations, "implementations");
    this.memo = Objects.requireNonNull(memo, "memo");
  }

  /**
   * Returns the rewritten class file, or null when the class is to stay as it is (no loop recognized,
   * unsupported class file, or an internal error). Every loop seen is registered, accepted or not; the
   * accepted loops of a class that then cannot be written are registered again as discarded, and those the
   * registry {@linkplain SiteRegistry#keepsOriginal keeps as they were} are not rewritten.
   *
   * @param loader the class's defining loader (null for bootstrap), used only to read the bytes of
   *     other classes, never to load them
   */
  public byte[] rewrite(byte[] classfile, ClassLoader loader) {
    LoopPrescan scan;
    try {
      scan = LoopPrescan.of(classfile);
    } catch (RuntimeException e) {
      return null;
    }
    BitSet now = scan.candidates();
    BitSet rest = new BitSet();
    if (later != null) {
      rest = (BitSet) now.clone();
      rest.andNot(scan.offloadable());
      now = scan.offloadable();
    }
    long classHash = now.isEmpty() ? 0 : hash(classfile);
    BitSet worth = null; // what this analysis finds worth it, when the memo does not know the class file
    if (!now.isEmpty() && later != null) {
      BitSet known = memo.methodsWorthAnalyzing(classHash);
      if (known == null) {
        worth = new BitSet();
      } else {
        BitSet passed = (BitSet) now.clone();
        passed.andNot(known);
        rest.or(passed);
        now = (BitSet) now.clone();
        now.and(known);
      }
    }
    try {
      byte[] out = now.isEmpty() ? null : rewrite(classfile, classHash, loader, scan, now, worth);
      if (worth != null) memo.analyzed(classHash, worth);
      return out;
    } finally {
      if (!rest.isEmpty()) analyzeLater(classfile, loader, scan.className(), rest);
    }
  }

  /**
   * Rewrites the loops of {@code methods}; with a {@code worth} set, adds to it the methods found worth
   * analyzing (see {@link AnalysisMemo}), or all of {@code methods} when that fails part-way.
   */
  private byte[] rewrite(byte[] classfile, long classHash, ClassLoader loader, LoopPrescan scan, BitSet methods,
      BitSet worth) {
    List<Integer> accepted = new ArrayList<>();
    BitSet found = new BitSet();
    try {
      ClassReader cr = new ClassReader(classfile);
      List<MethodNode> candidates = new ArrayList<>();
      ClassNode cn = read(cr, scan, methods, candidates);
      WantsCounted wants = new WantsCounted(implementations);
      ClassHierarchy hierarchy = new ClassHierarchy(loader, cn, wants);
      // Every method is analyzed before any is rewritten: an analysis inlines helpers as they were written.
      Map<MethodContext, List<LoopAnalyzer.Result>> analyzed = new LinkedHashMap<>();
      Map<MethodContext, Integer> indexOf = new HashMap<>();
      int index = -1;
      for (MethodNode mn : candidates) {
        index = methods.nextSetBit(index + 1); // candidates come in class file order, one per set bit
        MethodContext ctx = context(cn, mn, hierarchy);
        if (ctx == null) continue;
        int wanted = wants.count;
        analyzed.put(ctx, new LoopAnalyzer(ctx).analyze());
        indexOf.put(ctx, index);
        if (wants.count != wanted) found.set(index);
      }
      String hex = HexFormat.of().toHexDigits(classHash);
      Map<String, MethodNode> rewritten = new HashMap<>();
      // The loops of each rewritten method that HotSpot could compile as it was, by name and descriptor.
      Map<String, List<Integer>> idsOfCompilable = new HashMap<>();
      // Each rewritten method the memo may watch (see AnalysisMemo.rewrote): its index and loops.
      Map<String, Watched> watched = new HashMap<>();
      for (Map.Entry<MethodContext, List<LoopAnalyzer.Result>> method : analyzed.entrySet()) {
        MethodContext ctx = method.getKey();
        List<LoopAnalyzer.Plan> plans = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (LoopAnalyzer.Result r : method.getValue()) {
          LoopSite site = r.site();
          LoopAnalyzer.Plan plan = r instanceof LoopAnalyzer.Plan p ? p : null;
          if (plan != null && options.rejectsSequential() && sequential(site.template())) {
            plan = null;
            site = LoopSite.rejected(site.className(), site.method(), site.descriptor(), site.line(), site.kind(),
                site.template().isParallel(true) ? ORDERED_SUM : SEQUENTIAL);
          }
          int id = registry.register(site.inClassFile(hex));
          if (plan != null) found.set(indexOf.get(ctx));
          if (plan != null && !registry.keepsOriginal(id)) {
            plans.add(plan);
            ids.add(id);
          }
        }
        if (plans.isEmpty()) continue;
        boolean compilable = MethodSize.withinLimit(ctx.method, cr);
        LoopRewriter.Scratch scratch = LoopRewriter.Scratch.allocate(ctx.method, plans);
        Set<Integer> regionExits = new HashSet<>();
        for (RegionRewriter.Region region : RegionRewriter.find(ctx, plans)) {
          List<Integer> regionSites = new ArrayList<>();
          for (LoopAnalyzer.Plan p : region.loops()) regionSites.add(ids.get(plans.indexOf(p)));
          regionExits.add(regionSites.get(regionSites.size() - 1));
          LoopSite first = region.loops().get(0).site();
          int regionId = registry.registerRegion(new RegionSite(first.className(), first.method(), first.descriptor(),
              first.line(), regionSites, region.temporaries().size()));
          RegionRewriter.rewrite(ctx, region, regionId, regionSites.stream().mapToInt(Integer::intValue).toArray(),
              options.minLength(), scratch);
        }
        LoopRewriter.rewrite(ctx, plans, ids.stream().mapToInt(Integer::intValue).toArray(), options.minLength(), scratch,
            regionExits);
        accepted.addAll(ids);
        String key = ctx.method.name + ctx.method.desc;
        rewritten.put(key, ctx.method);
        if (compilable) idsOfCompilable.put(key, ids);
        // A class file older than Java 7 has no switch to see a preamble run by. (A region's path opens with
        // its first loop's switch, so a method whose region ran has a site that did.)
        if (LoopRewriter.hasInvokeDynamic(ctx)) {
          watched.put(key, new Watched(indexOf.get(ctx), ids.stream().mapToInt(Integer::intValue).toArray()));
        }
      }
      if (worth != null) worth.or(found);
      if (accepted.isEmpty()) return null;
      byte[] out = write(cr, cn.version, rewritten, hierarchy);
      List<String> tooLarge = MethodSize.pastLimit(out, idsOfCompilable.keySet());
      if (tooLarge.isEmpty()) {
        tellMemo(classHash, rewritten.keySet(), watched);
        return out;
      }
      // Those methods keep their original bytes: interpreted for good, they would lose far more than their
      // loops could gain. Leaving their constants out only lowers the others' sizes.
      for (String key : tooLarge) {
        rewritten.remove(key);
        for (int id : idsOfCompilable.get(key)) {
          registry.discard(id, TOO_LARGE);
          accepted.remove(Integer.valueOf(id));
        }
      }
      if (rewritten.isEmpty()) return null;
      out = write(cr, cn.version, rewritten, hierarchy);
      tellMemo(classHash, rewritten.keySet(), watched);
      return out;
    } catch (Throwable t) {
      for (int id : accepted) registry.discard(id, "the class could not be rewritten (" + t + "); it runs unchanged");
      if (worth != null) worth.or(methods);
      return null;
    }
  }

  /** A rewritten method the memo may watch: its index among the class file's methods, and its loops' ids. */
  private record Watched(int method, int[] siteIds) {}

  /** Tells the memo which loops of each written method (by name and descriptor) it may watch. */
  private void tellMemo(long classHash, Set<String> written, Map<String, Watched> watched) {
    for (String key : written) {
      Watched w = watched.get(key);
      if (w != null) memo.rewrote(classHash, w.method(), w.siteIds());
    }
  }

  /**
   * True for a template no executor can split: its outermost loop may not run in parallel (a reduction kept
   * in Java's order, or one that cannot be split at all) and it is not an ordered template, whose band can.
   */
  private static boolean sequential(LoopTemplate t) {
    return !t.ordered() && !t.isParallel(false);
  }

  /**
   * A hash of a class file's bytes: its CRC-32C and CRC-32 side by side. It only tells versions of a class
   * apart, in the measured selection's records (as 16 hex digits) and the {@link AnalysisMemo}, where a
   * collision would reuse a measurement or leave loops as they are, never change a result; a cryptographic
   * digest's first use initializes the security providers, about 40 ms on the thread loading the first class
   * with a loop.
   */
  static long hash(byte[] classfile) {
    CRC32C castagnoli = new CRC32C();
    castagnoli.update(classfile);
    CRC32 ieee = new CRC32();
    ieee.update(classfile);
    return castagnoli.getValue() << 32 | ieee.getValue();
  }

  /** Passes calls on to {@code implementations}, counting the implementations wanted. Not thread-safe. */
  private static final class WantsCounted implements Implementations {
    private final Implementations implementations;
    int count;

    WantsCounted(Implementations implementations) {
      this.implementations = implementations;
    }

    @Override
    public String of(String owner, String method) {
      return implementations.of(owner, method);
    }

    @Override
    public void wanted(String owner, String method, String caller, ClassLoader loader) {
      count++;
      implementations.wanted(owner, method, caller, loader);
    }
  }

  /**
   * Hands {@link #later} the analysis of the loops of {@code methods}, which {@link #rewrite} left out, for the
   * report. The task holds
   * the class's loader weakly, so that tasks waiting to run never keep a loader alive, and holds the class
   * file only when the loader cannot give it back by name ({@link ClassFiles#givesBack}): the bytes of every
   * class with such loops would add up. A loop accepted after all cannot be rewritten any more and is
   * registered as discarded.
   */
  private void analyzeLater(byte[] classfile, ClassLoader loader, String name, BitSet methods) {
    boolean bootstrap = loader == null;
    WeakReference<ClassLoader> ref = new WeakReference<>(loader);
    byte[] kept = ClassFiles.givesBack(loader, name) ? null : classfile;
    try {
      later.execute(() -> {
        ClassLoader l = ref.get();
        if (!bootstrap && l == null) return; // unloaded with its class
        try {
          byte[] bytes = kept != null ? kept : readBack(l, name);
          if (bytes == null) return;
          LoopPrescan scan = LoopPrescan.of(bytes);
          BitSet rest = (BitSet) scan.candidates().clone();
          rest.and(methods); // the same methods, unless the loader gives back other bytes than it defined
          for (LoopSite site : sites(bytes, l, scan, rest)) {
            int id = registry.register(site);
            if (site.accepted()) registry.discard(id, ANALYZED_LATE);
          }
        } catch (IOException | RuntimeException e) {
          // As for any class that cannot be analyzed: it runs as it is, and the report lacks its loops.
        }
      });
    } catch (RuntimeException e) {
      // The executor refused the task: the report lacks these loops, which run as they are anyway.
    }
  }

  /**
   * Whether class {@code internalName}, defined by {@code loader} before the agent came, may need rewriting:
   * true when the class file the loader gives back has a loop over arrays, or when the loader gives none back.
   * A class without one is better not retransformed at all: redefining a class costs its compiled code, and the
   * frames of its methods running at that moment their file and line in stack traces.
   */
  public static boolean mayRewrite(ClassLoader loader, String internalName) {
    try {
      byte[] bytes = readBack(loader, internalName);
      return bytes == null || !LoopPrescan.of(bytes).candidates().isEmpty();
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /**
   * The class file {@code loader} has for class {@code name}, or null. Read into one array of the size the
   * stream announces (a jar entry's or a file's), rather than in chunks copied together at the end: the
   * report reads back hundreds of class files at exit, when every byte allocated may grow the heap.
   */
  private static byte[] readBack(ClassLoader loader, String name) throws IOException {
    try (InputStream in = loader.getResourceAsStream(name + ".class")) {
      if (in == null) return null;
      byte[] bytes = new byte[Math.max(0, in.available())];
      int n = in.readNBytes(bytes, 0, bytes.length);
      int next = in.read();
      if (n == bytes.length && next < 0) return bytes;
      // The stream announced less than it holds (or ended early): whatever is left, read the usual way.
      byte[] rest = next < 0 ? new byte[0] : in.readAllBytes();
      byte[] all = Arrays.copyOf(bytes, n + (next < 0 ? 0 : 1) + rest.length);
      if (next >= 0) all[n] = (byte) next;
      System.arraycopy(rest, 0, all, n + (next < 0 ? 0 : 1), rest.length);
      return all;
    }
  }

  /** The loop sites of a class file without rewriting it (for {@code analyze JAR|DIR}); empty when unreadable. */
  public static List<LoopSite> analyze(byte[] classfile, ClassLoader loader) {
    try {
      LoopPrescan scan = LoopPrescan.of(classfile);
      return sites(classfile, loader, scan, scan.candidates());
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** The loop sites of {@code methods}, analyzed without rewriting anything. */
  private static List<LoopSite> sites(byte[] classfile, ClassLoader loader, LoopPrescan scan, BitSet methods) {
    List<LoopSite> sites = new ArrayList<>();
    if (methods.isEmpty()) return sites;
    List<MethodNode> candidates = new ArrayList<>();
    ClassNode cn = read(new ClassReader(classfile), scan, methods, candidates);
    ClassHierarchy hierarchy = new ClassHierarchy(loader, cn);
    for (MethodNode mn : candidates) {
      MethodContext ctx = context(cn, mn, hierarchy);
      if (ctx == null) continue;
      for (LoopAnalyzer.Result r : new LoopAnalyzer(ctx).analyze()) sites.add(r.site());
    }
    return sites;
  }

  /**
   * Parses what the analysis of {@code methods} needs of a class file: every field, and only those methods
   * (added to {@code candidates} in class file order) and the helpers they call; the code of the other
   * methods is not even decoded.
   */
  private static ClassNode read(ClassReader cr, LoopPrescan scan, BitSet methods, List<MethodNode> candidates) {
    BitSet toRead = scan.methodsToRead(methods);
    ClassNode cn = new ClassNode();
    cr.accept(new ClassVisitor(Opcodes.ASM9, cn) {
      private int position;

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        int m = position++;
        if (!toRead.get(m)) return null;
        MethodVisitor mn = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (methods.get(m)) candidates.add((MethodNode) mn);
        return mn;
      }
    }, ClassReader.SKIP_FRAMES);
    return cn;
  }

  /**
   * Writes the class with the methods in {@code rewritten} (by name and descriptor) in place of the
   * originals. ASM copies every other method from the original bytes as it is, frames included, so frames
   * are computed (and other classes' files read for their common superclasses) only for rewritten code.
   */
  private static byte[] write(ClassReader cr, int version, Map<String, MethodNode> rewritten,
      ClassHierarchy hierarchy) {
    int major = version & 0xFFFF;
    ClassWriter cw = new ClassWriter(cr, major >= Opcodes.V1_6 ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS) {
      @Override
      protected String getCommonSuperClass(String a, String b) {
        return hierarchy.commonSuperClass(a, b);
      }
    };
    cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        MethodNode mn = rewritten.get(name + descriptor);
        if (mn == null) return super.visitMethod(access, name, descriptor, signature, exceptions);
        mn.accept(cw);
        return null;
      }
    }, 0);
    return cw.toByteArray();
  }

  /** The analysis context of a method that has a loop, or null for methods without one or not analyzable. */
  private static MethodContext context(ClassNode cn, MethodNode mn, ClassHierarchy hierarchy) {
    if ((mn.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || !hasBackwardJump(mn)) return null;
    for (AbstractInsnNode in : mn.instructions) {
      if (in.getOpcode() == Opcodes.JSR || in.getOpcode() == Opcodes.RET) return null;
    }
    try {
      return new MethodContext(cn, mn, hierarchy);
    } catch (RuntimeException e) {
      // A rejection, or code the analysis does not expect: this method stays as it is, the others do not.
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
