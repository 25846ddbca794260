package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The pre-scan passes on every method in which the analyzer finds a loop over arrays — over the analyzer's
 * own test shapes and the programs of {@code test-apps} — and no method without one; and it reads class
 * files as ASM does, checked against an instruction-list version of the same rule over all of
 * {@code java.base}.
 */
class LoopPrescanTest {
  @TempDir Path apps;

  @Test
  void passesExactlyTheMethodsWithALoopOverArrays() throws IOException {
    byte[] bytes = bytesOf(PrescanShapes.class);
    Set<String> in = new TreeSet<>();
    Set<String> mayOffload = new TreeSet<>();
    Set<String> candidates = new TreeSet<>();
    Set<String> offloadable = new TreeSet<>();
    ClassNode cn = tree(bytes);
    LoopPrescan scan = LoopPrescan.of(bytes);
    for (int m = 0; m < cn.methods.size(); m++) {
      String name = cn.methods.get(m).name;
      if (name.startsWith("in")) in.add(name);
      if (name.startsWith("in") && !name.startsWith("inRejected")) mayOffload.add(name);
      if (scan.candidates().get(m)) candidates.add(name);
      if (scan.offloadable().get(m)) offloadable.add(name);
    }
    assertEquals(15, in.size());
    assertEquals(in, candidates);
    assertEquals(8, mayOffload.size());
    assertEquals(mayOffload, offloadable);
  }

  @Test
  void helpersCalledFromCandidatesAreReadWithThem() throws IOException {
    byte[] bytes = bytesOf(PrescanShapes.class);
    ClassNode cn = tree(bytes);
    LoopPrescan scan = LoopPrescan.of(bytes);
    BitSet only = new BitSet();
    for (int m = 0; m < cn.methods.size(); m++) {
      if (cn.methods.get(m).name.equals("inThroughTwoHelpers")) only.set(m);
    }
    Set<String> read = new TreeSet<>();
    BitSet toRead = scan.methodsToRead(only);
    for (int m = toRead.nextSetBit(0); m >= 0; m = toRead.nextSetBit(m + 1)) read.add(cn.methods.get(m).name);
    assertEquals(Set.of("bump", "bumpTwice", "inThroughTwoHelpers"), read);
  }

  @Test
  void aClassAlreadyRewrittenHasNoCandidates() throws IOException {
    byte[] bytes = bytesOf(Shapes.class);
    byte[] rewritten = new ClassRewriter(new RewriteOptions(0), new NumberingRegistry()).rewrite(bytes, null);
    assertNotNull(rewritten);
    assertTrue(!LoopPrescan.of(bytes).candidates().isEmpty());
    assertTrue(LoopPrescan.of(rewritten).candidates().isEmpty());
  }

  /**
   * A rewriter that leaves the loops the pre-scan expects rejected for later registers, once that work has
   * run, the same sites as one that analyzes everything at once, and rewrites the same classes.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void analyzingRejectedLoopsLaterChangesOnlyWhen(String source) throws Exception {
    for (byte[] bytes : classesOf(source)) {
      List<String> atOnce = new ArrayList<>();
      byte[] whole = new ClassRewriter(new RewriteOptions(0), new NumberingRegistry(atOnce)).rewrite(bytes, null);
      List<String> split = new ArrayList<>();
      List<Runnable> queued = new ArrayList<>();
      byte[] early = new ClassRewriter(new RewriteOptions(0), new NumberingRegistry(split), queued::add).rewrite(bytes, null);
      assertEquals(whole == null, early == null, new ClassReader(bytes).getClassName());
      int registeredAtLoad = split.size();
      queued.forEach(Runnable::run);
      Collections.sort(atOnce);
      Collections.sort(split);
      assertEquals(atOnce, split);
      long acceptedAtOnce = atOnce.stream().filter(x -> x.endsWith(" accepted")).count();
      assertTrue(registeredAtLoad >= acceptedAtOnce, "every accepted loop is registered before the class loads");
      assertTrue(queued.size() <= 1, "one task per class");
    }
  }

  /**
   * A rewriter told by its memo what an earlier analysis of the same class file found worth analyzing
   * analyzes only those methods at load, where it registers only sites of methods with an accepted loop or
   * one that waits for an implementation; it rewrites the class to the same bytes, and registers the same
   * sites once the rest has run.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void rememberingWhatWasWorthAnalyzingChangesOnlyWhenLoopsAreAnalyzed(String source) throws Exception {
    Map<Long, BitSet> kept = new HashMap<>();
    List<String> told = new ArrayList<>(); // what the memo is told was rewritten: method index, site id
    AnalysisMemo memo = new AnalysisMemo() {
      @Override
      public BitSet methodsWorthAnalyzing(long classHash) {
        return kept.get(classHash);
      }

      @Override
      public void analyzed(long classHash, BitSet worthAnalyzing) {
        assertNull(kept.put(classHash, (BitSet) worthAnalyzing.clone()), "a known class file is not analyzed whole");
      }

      @Override
      public void rewrote(long classHash, int method, int[] siteIds) {
        for (int id : siteIds) told.add(method + " " + id);
      }
    };
    Map<String, Integer> ids = new HashMap<>(); // a site's id in both runs, so that the bytes can be compared
    int passedOver = 0;
    int watched = 0;
    for (byte[] bytes : classesOf(source)) {
      told.clear();
      String name = new ClassReader(bytes).getClassName();
      List<String> first = new ArrayList<>();
      List<Runnable> queued = new ArrayList<>();
      byte[] learned = new ClassRewriter(new RewriteOptions(0), new NumberingRegistry(first, ids), queued::add,
          Implementations.NONE, memo).rewrite(bytes, null);
      int firstAtLoad = first.size();
      queued.forEach(Runnable::run);
      queued.clear();
      List<String> second = new ArrayList<>();
      byte[] remembered = new ClassRewriter(new RewriteOptions(0), new NumberingRegistry(second, ids), queued::add,
          Implementations.NONE, memo).rewrite(bytes, null);
      assertArrayEquals(learned, remembered, name);
      // Worth analyzing: a method with an accepted loop, or one waiting for an implementation to load.
      Set<String> worth = new HashSet<>();
      for (String site : first) {
        if (site.endsWith(" accepted") || site.contains("no loaded class implements")) {
          worth.add(site.substring(0, site.indexOf(':')));
        }
      }
      for (String site : second) {
        assertTrue(worth.contains(site.substring(0, site.indexOf(':'))), () -> site + " was analyzed at load again");
      }
      if (second.size() < firstAtLoad) passedOver++;
      queued.forEach(Runnable::run);
      Collections.sort(first);
      Collections.sort(second);
      assertEquals(first, second, name);
      // The memo is told of accepted sites only, each with the index of its own method in the class file.
      List<String> methods = new ArrayList<>();
      new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String n, String descriptor, String signature, String[] e) {
          methods.add(name.replace('/', '.') + "." + n + descriptor);
          return null;
        }
      }, ClassReader.SKIP_CODE);
      for (String t : told) {
        int method = Integer.parseInt(t.substring(0, t.indexOf(' ')));
        int id = Integer.parseInt(t.substring(t.indexOf(' ') + 1));
        String where = ids.entrySet().stream().filter(e -> e.getValue() == id).findFirst().orElseThrow().getKey();
        assertEquals(methods.get(method), where.substring(0, where.indexOf(':')), t);
        assertTrue(first.contains(where + " accepted"), where);
        watched++;
      }
    }
    if (source.equals("PrescanShapes") || source.equals("test-apps")) {
      assertTrue(passedOver > 0, "no class had a method analyzed at load for nothing");
    }
    if (source.equals("Shapes")) assertTrue(watched > 0, "the memo was told of no rewritten loop");
  }

  @Test
  void backwardSwitchCasesAndWideInstructionsAreRead() {
    // i = 0; head: b[i] = a[i]; i += 1000 (a wide iinc of local 300); switch (i - n) { case -1: goto head; }
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "Switchy", null, "java/lang/Object", null);
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "copy", "([I[II)V", null, null);
    mv.visitCode();
    mv.visitInsn(Opcodes.ICONST_0);
    mv.visitVarInsn(Opcodes.ISTORE, 300);
    Label head = new Label();
    Label exit = new Label();
    mv.visitLabel(head);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ILOAD, 300);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitVarInsn(Opcodes.ILOAD, 300);
    mv.visitInsn(Opcodes.IALOAD);
    mv.visitInsn(Opcodes.IASTORE);
    mv.visitIincInsn(300, 1000);
    mv.visitVarInsn(Opcodes.ILOAD, 300);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitInsn(Opcodes.ISUB);
    mv.visitTableSwitchInsn(-1, 0, exit, head, exit);
    mv.visitLabel(exit);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    MethodVisitor straight = cw.visitMethod(Opcodes.ACC_STATIC, "lookup", "([II)I", null, null);
    straight.visitCode();
    Label a = new Label();
    Label b = new Label();
    straight.visitVarInsn(Opcodes.ILOAD, 1);
    straight.visitLookupSwitchInsn(b, new int[] {3, 70000}, new Label[] {a, b});
    straight.visitLabel(a);
    straight.visitVarInsn(Opcodes.ALOAD, 0);
    straight.visitInsn(Opcodes.ICONST_0);
    straight.visitInsn(Opcodes.IALOAD);
    straight.visitInsn(Opcodes.IRETURN);
    straight.visitLabel(b);
    straight.visitInsn(Opcodes.ICONST_0);
    straight.visitInsn(Opcodes.IRETURN);
    straight.visitMaxs(0, 0);
    straight.visitEnd();
    cw.visitEnd();
    byte[] bytes = cw.toByteArray();
    LoopPrescan scan = LoopPrescan.of(bytes);
    assertEquals(byInstructionList(bytes, false), scan.candidates());
    assertEquals(BitSet.valueOf(new long[] {1}), scan.candidates(), "copy loops, lookup does not");
    assertTrue(scan.offloadable().isEmpty(), "the loop's span holds a switch");
  }

  @Test
  void bytesThatAreNoClassFileAreRefused() throws IOException {
    byte[] real = bytesOf(Shapes.class);
    assertThrows(RuntimeException.class, () -> LoopPrescan.of(new byte[0]));
    assertThrows(RuntimeException.class, () -> LoopPrescan.of("not a class file".getBytes()));
    assertThrows(RuntimeException.class, () -> LoopPrescan.of(Arrays.copyOf(real, real.length / 2)));
  }

  static Stream<String> sources() {
    return Stream.of("Shapes", "NestShapes", "ReductionShapes", "RegionShapes", "PrescanShapes", "HelperShapes", "test-apps");
  }

  /**
   * Real libraries' jars, named by a class of each. (Their loops without arrays that the analyzer accepts when
   * it analyzes everything, which the pre-scan passes over on purpose, rule them out of the comparison of
   * rewriting at once and later.)
   */
  static Stream<String> libraries() {
    return Stream.of("org.apache.commons.math3.util.FastMath", "cern.colt.matrix.impl.DenseDoubleMatrix1D",
        "org.ejml.data.DMatrixRMaj", "org.ejml.dense.row.CommonOps_DDRM");
  }

  /**
   * For each method, the analyzer as it ran before the pre-scan existed: every loop it accepts that uses
   * arrays, and every natural loop whose instructions read or write array elements, must be in a candidate
   * method, and every accepted loop in one the pre-scan calls offloadable.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource({"sources", "libraries"})
  void everyMethodWhereTheAnalyzerFindsALoopOverArraysIsACandidate(String source) throws Exception {
    int loopsOverArrays = 0;
    for (byte[] bytes : classesOf(source)) {
      LoopPrescan scan = LoopPrescan.of(bytes);
      ClassNode cn = tree(bytes);
      ClassHierarchy hierarchy = new ClassHierarchy(getClass().getClassLoader(), cn);
      for (int m = 0; m < cn.methods.size(); m++) {
        MethodNode mn = cn.methods.get(m);
        if (mn.instructions.size() == 0) continue;
        MethodContext ctx = new MethodContext(cn, mn, hierarchy);
        boolean overArrays = false;
        for (Cfg.Loop loop : ctx.loops()) overArrays |= touchesArrays(ctx, loop);
        boolean accepted = false;
        // An accepted loop without arrays (a sum of i * i) is passed over on purpose; PrescanShapes.outNoArrays.
        for (LoopAnalyzer.Result r : new LoopAnalyzer(ctx).analyze()) {
          accepted |= r.site().accepted() && !r.site().template().arrays().isEmpty();
        }
        String where = cn.name + "." + mn.name + mn.desc;
        if (overArrays || accepted) {
          loopsOverArrays++;
          assertTrue(scan.candidates().get(m), where + " has a loop over arrays but was passed over");
        }
        if (accepted) assertTrue(scan.offloadable().get(m), where + " has an accepted loop the pre-scan expected rejected");
      }
    }
    assertTrue(loopsOverArrays >= 5, "only " + loopsOverArrays + " methods checked in " + source);
  }

  /**
   * The same rule computed on ASM's instruction lists agrees with the pre-scan on every class of
   * {@code java.base}: the byte-level reading (constant pool, attributes, switch padding, {@code wide})
   * finds the same instructions ASM does.
   */
  @Test
  void agreesWithTheInstructionListsOfJavaBase() throws IOException {
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    int classes = 0;
    int withCandidates = 0;
    int withOffloadable = 0;
    try (Stream<Path> files = Files.walk(jrt.getPath("modules", "java.base"))) {
      for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
        byte[] bytes = Files.readAllBytes(p);
        LoopPrescan scan = LoopPrescan.of(bytes);
        BitSet expected = byInstructionList(bytes, false);
        assertEquals(expected, scan.candidates(), p.toString());
        assertEquals(byInstructionList(bytes, true), scan.offloadable(), p + " (offloadable)");
        classes++;
        if (!expected.isEmpty()) withCandidates++;
        if (!scan.offloadable().isEmpty()) withOffloadable++;
      }
    }
    assertTrue(classes > 5000 && withCandidates > 100 && withOffloadable > 50,
        classes + " classes, " + withCandidates + " with candidates, " + withOffloadable + " offloadable");
  }

  /**
   * The rule of {@link LoopPrescan}, written over ASM's instruction lists instead of the raw bytes: the
   * candidates, or with {@code clean} the offloadable ones (no rejected instruction in the loop's span).
   */
  /**
   * Whether jumps from the loop span {@code from..to} (its backward branch) leave it more often than its exit
   * test does (once when the backward branch is a {@code goto} to a test at the top, never otherwise), or its
   * exit test does not compare ints.
   */
  private static boolean earlyExit(MethodNode mn, AbstractInsnNode[] insns, int from, int to) {
    int leaving = 0;
    int test = insns[to].getOpcode() == Opcodes.GOTO ? -1 : to;
    for (int k = from; k < to; k++) {
      if (insns[k] instanceof JumpInsnNode j && mn.instructions.indexOf(j.label) > to) {
        leaving++;
        test = k;
      }
    }
    if (leaving > (insns[to].getOpcode() == Opcodes.GOTO ? 1 : 0)) return true;
    if (test < 0) return false;
    int op = insns[test].getOpcode();
    if (op >= Opcodes.IF_ICMPEQ && op <= Opcodes.IF_ICMPLE) return false;
    int previous = previousOpcode(insns, test);
    return !(op >= Opcodes.IFEQ && op <= Opcodes.IFLE && !(previous >= Opcodes.LCMP && previous <= Opcodes.DCMPG));
  }

  /** The opcode of the instruction before {@code insns[k]}, labels and line numbers aside; -1 when none. */
  private static int previousOpcode(AbstractInsnNode[] insns, int k) {
    for (int p = k - 1; p >= 0; p--) {
      if (insns[p].getOpcode() >= 0) return insns[p].getOpcode();
    }
    return -1;
  }

  /** The opcode of the instruction after {@code insns[k]}, labels and line numbers aside; -1 when none. */
  private static int nextOpcode(AbstractInsnNode[] insns, int k) {
    for (int p = k + 1; p < insns.length; p++) {
      if (insns[p].getOpcode() >= 0) return insns[p].getOpcode();
    }
    return -1;
  }

  private static BitSet byInstructionList(byte[] bytes, boolean clean) {
    ClassNode cn = new ClassNode();
    new ClassReader(bytes).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    int n = cn.methods.size();
    BitSet candidates = new BitSet();
    BitSet touches = new BitSet();
    List<int[]> calls = new ArrayList<>(); // {caller, callee, from a loop ? 1 : 0}
    for (int m = 0; m < n; m++) {
      AbstractInsnNode[] insns = cn.methods.get(m).instructions.toArray();
      List<int[]> ranges = new ArrayList<>(); // {from, to, clean ? 1 : 0}
      for (int k = 0; k < insns.length; k++) {
        if (isArrayAccess(insns[k])) touches.set(m);
        for (LabelNode target : Cfg.targets(insns[k])) {
          int t = cn.methods.get(m).instructions.indexOf(target);
          boolean cleanRange = !anyRejected(cn, insns, t, k) && !earlyExit(cn.methods.get(m), insns, t, k);
          if (t <= k && (!clean || cleanRange)) ranges.add(new int[] {t, k, cleanRange ? 1 : 0});
        }
      }
      for (int[] r : ranges) {
        if (clean && offloadsElements(cn, insns, r[0], r[1])) candidates.set(m);
      }
      for (int k = 0; k < insns.length; k++) {
        boolean inLoop = false;
        boolean inCleanLoop = false;
        for (int[] r : ranges) {
          inLoop |= r[0] <= k && k <= r[1];
          inCleanLoop |= r[0] <= k && k <= r[1] && r[2] == 1;
        }
        if (!clean && inLoop && isArrayAccess(insns[k])) candidates.set(m);
        // A call of another class's method the analyzer may inline, which may touch arrays, in a clean loop.
        if (!clean && inCleanLoop && foreign(cn, insns[k])) candidates.set(m);
        if (insns[k] instanceof MethodInsnNode mi && mi.getOpcode() != Opcodes.INVOKEINTERFACE) {
          if (mi.owner.equals(io.looplift.bridge.LoopBridge.INTERNAL_NAME)) return new BitSet();
          if (!mi.owner.equals(cn.name)) continue;
          for (int c = 0; c < n; c++) {
            MethodNode callee = cn.methods.get(c);
            if (callee.name.equals(mi.name) && callee.desc.equals(mi.desc)) calls.add(new int[] {m, c, inLoop ? 1 : 0});
          }
        }
      }
    }
    for (boolean grew = true; grew; ) {
      grew = false;
      for (int[] c : calls) {
        if (touches.get(c[1]) && !touches.get(c[0])) {
          touches.set(c[0]);
          grew = true;
        }
      }
    }
    for (int[] c : calls) {
      if (c[2] == 1 && touches.get(c[1])) candidates.set(c[0]);
    }
    return candidates;
  }

  /**
   * Whether an instruction from {@code from} to {@code to} is one the analyzer rejects in any loop of class
   * {@code self} (a call on an object is, unless of a method of {@code self}, or of one that returns a number or
   * nothing in a class whose methods on objects are inlined).
   */
  private static boolean anyRejected(ClassNode self, AbstractInsnNode[] insns, int from, int to) {
    for (int k = from; k <= to; k++) {
      int op = insns[k].getOpcode();
      boolean rejected = switch (op) {
        case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKESPECIAL -> !inlinable(self, (MethodInsnNode) insns[k]);
        case Opcodes.INVOKESTATIC -> returnsReference((MethodInsnNode) insns[k]);
        case Opcodes.ACONST_NULL, Opcodes.AASTORE, Opcodes.TABLESWITCH, Opcodes.LOOKUPSWITCH,
            Opcodes.PUTSTATIC, Opcodes.PUTFIELD, Opcodes.INVOKEINTERFACE, Opcodes.INVOKEDYNAMIC, Opcodes.NEW, Opcodes.NEWARRAY, Opcodes.ANEWARRAY,
            Opcodes.ATHROW, Opcodes.CHECKCAST, Opcodes.INSTANCEOF, Opcodes.MONITORENTER, Opcodes.MONITOREXIT,
            Opcodes.MULTIANEWARRAY -> true;
        case Opcodes.AALOAD -> nextOpcode(insns, k) == Opcodes.GETFIELD; // a field only an object has
        default -> op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
      };
      if (rejected) return true;
    }
    return false;
  }

  private static boolean inlinable(ClassNode self, MethodInsnNode mi) {
    return !returnsReference(mi) && (mi.owner.equals(self.name) || Libraries.inlinesInstanceMethodsOf(mi.owner));
  }

  private static boolean returnsReference(MethodInsnNode mi) {
    int returns = org.objectweb.asm.Type.getReturnType(mi.desc).getSort();
    return returns == org.objectweb.asm.Type.OBJECT || returns == org.objectweb.asm.Type.ARRAY;
  }

  /** A call of another class's method that the analyzer may inline, which may touch arrays. */
  private static boolean foreign(ClassNode self, AbstractInsnNode in) {
    return in instanceof MethodInsnNode mi && !mi.owner.equals(self.name) && mi.getOpcode() != Opcodes.INVOKEINTERFACE
        && inlinable(self, mi);
  }

  /**
   * Whether the loop from {@code from} to {@code to} works on something an executor could: a primitive
   * element, a static method of another class that may touch arrays, a method on an object when it reads no
   * element of an array of references, or the lengths of the rows it reads.
   */
  private static boolean offloadsElements(ClassNode self, AbstractInsnNode[] insns, int from, int to) {
    boolean element = false;
    boolean row = false;
    boolean length = false;
    boolean onObject = false;
    for (int k = from; k <= to; k++) {
      int op = insns[k].getOpcode();
      if (op == Opcodes.AALOAD) row = true;
      else if (isArrayAccess(insns[k])) element = true;
      length |= op == Opcodes.ARRAYLENGTH;
      if (foreign(self, insns[k])) {
        if (op == Opcodes.INVOKESTATIC) element = true;
        else onObject = true;
      }
    }
    return element || (row ? length && !onObject : onObject);
  }

  private static boolean isArrayAccess(AbstractInsnNode in) {
    int op = in.getOpcode();
    return (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) || (op >= Opcodes.IASTORE && op <= Opcodes.SASTORE
        && op != Opcodes.AASTORE);
  }

  private static boolean touchesArrays(MethodContext ctx, Cfg.Loop loop) {
    for (Cfg.Block b : ctx.cfg.blocks) {
      if (!loop.contains(b)) continue;
      for (int k = b.start; k < b.end; k++) {
        if (isArrayAccess(ctx.insns[k])) return true;
      }
    }
    return false;
  }

  /** The class files of one of {@link #sources()}. */
  private List<byte[]> classesOf(String source) throws Exception {
    List<byte[]> classes = new ArrayList<>();
    if (source.equals("test-apps")) {
      for (Path p : compiledApps()) classes.add(Files.readAllBytes(p));
    } else if (source.contains(".")) {
      Path jar = Path.of(Class.forName(source).getProtectionDomain().getCodeSource().getLocation().toURI());
      try (JarFile file = new JarFile(jar.toFile())) {
        for (JarEntry e : Collections.list(file.entries())) {
          if (!e.getName().endsWith(".class") || e.getName().endsWith("-info.class")) continue;
          try (InputStream in = file.getInputStream(e)) {
            classes.add(in.readAllBytes());
          }
        }
      }
    } else {
      classes.add(bytesOf(Class.forName(LoopPrescanTest.class.getPackageName() + "." + source)));
    }
    return classes;
  }

  /** The classes of {@code test-apps}' programs, compiled from their sources (that module builds later). */
  private List<Path> compiledApps() throws IOException {
    Path sources = Path.of("..", "test-apps", "src", "main", "java", "io", "looplift", "apps");
    List<String> args = new ArrayList<>(List.of("-d", apps.toString(), "-nowarn"));
    try (Stream<Path> files = Files.list(sources)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, args.toArray(new String[0])), "test-apps sources do not compile");
    try (Stream<Path> files = Files.walk(apps)) {
      return files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
    }
  }

  private static ClassNode tree(byte[] bytes) {
    ClassNode cn = new ClassNode();
    new ClassReader(bytes).accept(cn, ClassReader.SKIP_FRAMES);
    return cn;
  }

  private static byte[] bytesOf(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      return in.readAllBytes();
    }
  }

  /**
   * Numbers sites in the order they come; with a list, also describes each there; with a map, numbers each
   * site by where it is, as the map has it or the map's size when it has none.
   */
  private static final class NumberingRegistry implements SiteRegistry {
    private final List<String> described;
    private final Map<String, Integer> ids;
    private int sites;

    NumberingRegistry() {
      this(new ArrayList<>());
    }

    NumberingRegistry(List<String> described) {
      this(described, null);
    }

    NumberingRegistry(List<String> described, Map<String, Integer> ids) {
      this.described = described;
      this.ids = ids;
    }

    @Override
    public synchronized int register(LoopSite site) {
      String where = site.className() + "." + site.method() + site.descriptor() + ":" + site.line() + " " + site.kind();
      described.add(where + (site.accepted() ? " accepted" : " rejected: " + site.reason()));
      return ids == null ? sites++ : ids.computeIfAbsent(where, w -> ids.size());
    }

    @Override
    public void discard(int siteId, String reason) {
      described.add("discarded " + siteId + ": " + reason);
    }

    @Override
    public synchronized int registerRegion(RegionSite region) { return 0; }
  }
}
