package io.looplift.progen.jvm;

import static io.looplift.progen.jvm.NodeEmitter.loadOp;
import static io.looplift.progen.jvm.NodeEmitter.storeOp;
import static org.objectweb.asm.Opcodes.*;

import io.looplift.ir.Acc;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The method of a nest kernel: the levels of the nest as counted loops, each value computed into a local
 * where {@link Hoisting} puts it, each segment computed before its stores are performed, and the levels
 * that {@link Jam} picks unrolled and jammed. Inner loops take javac's rotated shape
 * {@code for (v = start; v cond limit; v += step)} over an int variable, with their limit, their arrays and
 * rows, and their invariant values in locals, which is the shape C2 compiles as a counted loop. Single use.
 */
final class NestMethod {
  /** The method's descriptor: the arguments of {@link NestKernel#run}. */
  static final String DESC = "([Ljava/lang/Object;[J[JIIIII)V";
  private static final int ARRAYS = 0;
  private static final int PARAMS = 1;
  private static final int ACCS = 2;
  private static final int START = 3;
  private static final int STEP = 4;
  private static final int TRIPS = 5;
  private static final int FROM = 6;
  private static final int TO = 7;
  /** The instance of values shared by all instances of a block, and of everything outside blocks. */
  private static final int SHARED = -1;
  /** The instance of a loop run once for all instances of a block. */
  private static final int ALL = -2;
  /** The instance of the lane a lane loop is in (see {@link Jam#inLanes}). */
  private static final int LANE = 0;

  /** A value for one instance of a jammed block, or for all ({@link #SHARED}). */
  private record Key(Val val, int instance) {}

  private final LoopTemplate t;
  /** The band whose iterations {@code [from, to)} a kernel runs, or null when that is the outermost loop's. */
  private final Loop band;
  private final Level root;
  private final boolean split;
  private final boolean unitStep;
  private final Hoisting hoisting;
  private final Map<Level, Jam> jams;
  private final Map<Key, Integer> slots = new HashMap<>();
  /** The values computed so far that are valid where code is being emitted, innermost scope first. */
  private final Deque<Set<Key>> scopes = new ArrayDeque<>();
  private final int[] arrayLocals;
  private final int[] accLocals;
  /** The locals holding the arrays by lane of the jams in lanes: carried values and lane values. */
  private final Map<Val, Integer> laneArrays = new HashMap<>();
  private final NodeEmitter.Operands[] instances = new NodeEmitter.Operands[Jam.WIDTH + 1];
  private int nextLocal = TO + 1;
  private MethodVisitor mv;
  private NodeEmitter code;
  /** The jam whose block is being emitted, or null. */
  private Jam jam;

  /**
   * A method for {@code t}'s kernels, with the jam when {@code jammed}; {@code unitStep}: only for launches
   * whose outermost loop steps by 1, which a jammed outermost loop then addresses at constant offsets.
   */
  NestMethod(LoopTemplate t, NestDimension dimension, boolean split, boolean jammed, boolean unitStep) {
    this.t = t;
    this.split = split;
    this.unitStep = unitStep;
    this.band = dimension.band();
    this.root = Level.root(t, dimension, split);
    this.hoisting = new Hoisting(root);
    this.jams = jammed ? Jam.plan(root, t) : Map.of();
    this.arrayLocals = new int[t.arrays().size()];
    this.accLocals = new int[t.accumulators().size()];
    for (int u = SHARED; u < Jam.WIDTH; u++) {
      int instance = u;
      instances[u + 1] = new NodeEmitter.Operands() {
        @Override
        public void push(Node n) { NestMethod.this.push(n, instance); }

        @Override
        public void pushArray(int array, Node row) { NestMethod.this.pushArray(array, row, instance); }
      };
    }
  }

  /** True when some level is jammed. */
  boolean jams() {
    return !jams.isEmpty();
  }

  /** True when the kernel's outermost level is jammed. */
  boolean jamsRoot() {
    return jams.containsKey(root);
  }

  /** Emits the static method {@code name}; returns its bytecode length. */
  int emit(ClassWriter cw, String name) {
    mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, name, DESC, null, null);
    code = new NodeEmitter(mv, PARAMS);
    mv.visitCode();
    Label epilogue = new Label();
    Label exit = new Label();
    mv.visitVarInsn(ILOAD, FROM);
    mv.visitVarInsn(ILOAD, TO);
    mv.visitJumpInsn(IF_ICMPGE, exit);
    prologue();
    laneArrays();
    scopes.push(new HashSet<>());
    if (band != null) {
      // Invariant (see NestDimension): evaluated once, where Java would evaluate them in every outer iteration.
      ensure(Val.of(band.predicate()), SHARED);
      branchIfFalse(band.predicate(), SHARED, epilogue);
      ensure(Val.of(band.start()), SHARED);
    }
    for (Val v : hoisting.preheader(root)) ensure(v, SHARED);
    rootLoop();
    scopes.pop();
    mv.visitLabel(epilogue);
    for (int j = 0; j < accLocals.length; j++) code.encode(ACCS, j, t.accumulators().get(j), accLocals[j]);
    mv.visitLabel(exit);
    mv.visitInsn(RETURN);
    Label end = new Label();
    mv.visitLabel(end);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    return end.getOffset();
  }

  private int newLocal(int size) {
    int slot = nextLocal;
    nextLocal += size;
    return slot;
  }

  private void prologue() {
    boolean[] used = t.readArrays();
    boolean[] written = t.writtenArrays();
    for (int a = 0; a < arrayLocals.length; a++) {
      if (!used[a] && !written[a]) continue;
      arrayLocals[a] = newLocal(1);
      String element = "[" + t.arrays().get(a).descriptor();
      code.argument(ARRAYS, a, t.isRows(a) ? "[" + element : element, arrayLocals[a]);
    }
    for (int j = 0; j < accLocals.length; j++) {
      Type type = t.accumulators().get(j);
      accLocals[j] = newLocal(type.isWide() ? 2 : 1);
      code.decode(ACCS, j, type);
      mv.visitVarInsn(storeOp(type), accLocals[j]);
    }
  }

  /** Allocates the arrays by lane of every jam in lanes, once per kernel run. */
  private void laneArrays() {
    for (Jam j : jams.values()) {
      if (!j.inLanes()) continue;
      Loop loop = j.lanesOf().loop();
      List<Val> values = new ArrayList<>(j.laneValues());
      for (int s = 0; s < loop.carried().size(); s++) values.add(carriedVal(loop, s));
      for (Val v : values) {
        if (laneArrays.containsKey(v)) continue;
        int local = newLocal(1);
        code.pushInt(Jam.LANES);
        mv.visitIntInsn(NEWARRAY, switch (v.node().type().stackType()) {
          case LONG -> T_LONG;
          case FLOAT -> T_FLOAT;
          case DOUBLE -> T_DOUBLE;
          default -> T_INT;
        });
        mv.visitVarInsn(ASTORE, local);
        laneArrays.put(v, local);
      }
    }
  }

  // ---- levels ---------------------------------------------------------------------------------------

  /**
   * The kernel's outermost level: the outermost loop over {@code k} in {@code [from, to)} with
   * {@code i = start + k * step}, or whole when the kernel runs a range of a band.
   */
  private void rootLoop() {
    if (band != null) {
      outerLoopWhole();
      return;
    }
    int var = slot(key(Val.of(root.var()), SHARED));
    mv.visitVarInsn(ILOAD, FROM);
    pushRootStep();
    mv.visitInsn(IMUL);
    mv.visitVarInsn(ILOAD, START);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, var);
    Jam rootJam = jams.get(root);
    if (rootJam != null) {
      int remaining = newLocal(1);
      mv.visitVarInsn(ILOAD, TO);
      mv.visitVarInsn(ILOAD, FROM);
      mv.visitInsn(ISUB);
      mv.visitVarInsn(ISTORE, remaining);
      blocks(rootJam, var, remaining, this::pushRootStep);
      return;
    }
    int k = newLocal(1);
    mv.visitVarInsn(ILOAD, FROM);
    mv.visitVarInsn(ISTORE, k);
    Label top = new Label();
    mv.visitLabel(top);
    body(root, SHARED);
    mv.visitIincInsn(k, 1);
    advance(var, this::pushRootStep);
    mv.visitVarInsn(ILOAD, k);
    mv.visitVarInsn(ILOAD, TO);
    mv.visitJumpInsn(IF_ICMPLT, top);
  }

  private void pushRootStep() {
    if (unitStep) code.pushInt(1);
    else mv.visitVarInsn(ILOAD, STEP);
  }

  /** The template's outermost loop, whole: {@code i = start + k * step} for {@code k} in {@code [0, trips)}. */
  private void outerLoopWhole() {
    Label skip = new Label();
    mv.visitVarInsn(ILOAD, TRIPS);
    mv.visitJumpInsn(IFLE, skip);
    int var = slot(key(Val.of(root.var()), SHARED));
    int k = newLocal(1);
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, k);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ISTORE, var);
    Label top = new Label();
    mv.visitLabel(top);
    body(root, SHARED);
    mv.visitIincInsn(k, 1);
    advance(var, () -> mv.visitVarInsn(ILOAD, STEP));
    mv.visitVarInsn(ILOAD, k);
    mv.visitVarInsn(ILOAD, TRIPS);
    mv.visitJumpInsn(IF_ICMPLT, top);
    mv.visitLabel(skip);
  }

  /**
   * The band's iterations {@code k} in {@code [from, to)} (never empty), {@code j = start + k * step}, inside
   * an iteration of the outermost loop: the band's own bounds and predicate were checked once (see
   * {@link #emit}).
   */
  private void bandRange(Level l) {
    scopes.push(new HashSet<>());
    int var = slot(key(Val.of(l.var()), SHARED));
    for (Val v : hoisting.preheader(l)) ensure(v, SHARED);
    Jam own = jams.get(l);
    if (own != null) {
      storeBandValue(FROM, var);
      int remaining = newLocal(1);
      mv.visitVarInsn(ILOAD, TO);
      mv.visitVarInsn(ILOAD, FROM);
      mv.visitInsn(ISUB);
      mv.visitVarInsn(ISTORE, remaining);
      blocks(own, var, remaining, () -> code.pushInt(band.step()));
    } else {
      // One induction variable, k, and j computed from it: C2 vectorizes a loop over a[k * step + start], not
      // one that steps j beside k. The test before the loop is redundant (from < to) but C2 wants it there:
      // without it this loop ran 6 times slower, unvectorized.
      int k = newLocal(1);
      Label skip = new Label();
      mv.visitVarInsn(ILOAD, FROM);
      mv.visitVarInsn(ISTORE, k);
      mv.visitVarInsn(ILOAD, k);
      mv.visitVarInsn(ILOAD, TO);
      mv.visitJumpInsn(IF_ICMPGE, skip);
      Label top = new Label();
      mv.visitLabel(top);
      storeBandValue(k, var);
      body(l, SHARED);
      mv.visitIincInsn(k, 1);
      mv.visitVarInsn(ILOAD, k);
      mv.visitVarInsn(ILOAD, TO);
      mv.visitJumpInsn(IF_ICMPLT, top);
      mv.visitLabel(skip);
    }
    scopes.pop();
  }

  /** {@code var = k * step + start}, the band's variable in its iteration {@code k} (in local {@code counter}). */
  private void storeBandValue(int counter, int var) {
    mv.visitVarInsn(ILOAD, counter);
    code.pushInt(band.step());
    mv.visitInsn(IMUL);
    push(band.start(), SHARED);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, var);
  }

  /** An inner level for instance {@code u}: entered where its predicate holds, then Java's counted loop. */
  private void level(Level l, int u) {
    if (band != null && l.parent() == root) {
      bandRange(l);
      return;
    }
    Loop loop = l.loop();
    Label skip = new Label();
    scopes.push(new HashSet<>());
    enter(l, u, u, skip);
    Jam own = jam == null ? jams.get(l) : null;
    if (own != null) {
      int var = slot(key(Val.of(l.var()), u));
      int remaining = newLocal(1);
      tripCount(loop, var, u);
      mv.visitVarInsn(ISTORE, remaining);
      blocks(own, var, remaining, () -> code.pushInt(loop.step()));
    } else {
      loopBack(l, u, () -> body(l, u));
    }
    mv.visitLabel(skip);
    scopes.pop();
  }

  /**
   * Emits the entry of IR level {@code l}: its carried values for {@code u} (zero where the predicate fails,
   * so that every path defines them), the predicate and bounds of {@code header} (the instance whose values
   * stand for all in a shared loop), the variable, the first test jumping to {@code skip}, and the preheader.
   */
  private void enter(Level l, int u, int header, Label skip) {
    Loop loop = l.loop();
    List<Integer> carried = instancesOf(u);
    if (!loop.predicate().equals(Const.TRUE)) {
      for (int c : carried) {
        for (int s = 0; s < loop.carried().size(); s++) {
          Type type = loop.carried().get(s).type();
          code.pushConst(Const.ofBits(type, 0));
          mv.visitVarInsn(storeOp(type), carriedSlot(loop, s, c));
        }
      }
      ensure(Val.of(loop.predicate()), header);
      branchIfFalse(loop.predicate(), header, skip);
    }
    for (int c : carried) {
      for (int s = 0; s < loop.carried().size(); s++) {
        Carried cv = loop.carried().get(s);
        ensure(Val.of(cv.init()), c);
        push(cv.init(), c);
        mv.visitVarInsn(storeOp(cv.type()), carriedSlot(loop, s, c));
      }
    }
    firstTest(l, u, header, skip);
    for (Val v : hoisting.preheader(l)) {
      for (int c : instancesOf(jam != null && jam.dependent(v) ? u : SHARED)) ensure(v, c);
    }
  }

  /**
   * Sets the variable of level {@code l} for instance {@code u} to the loop's start and jumps to {@code skip}
   * unless its first test passes, with the bounds of instance {@code header}.
   */
  private void firstTest(Level l, int u, int header, Label skip) {
    Loop loop = l.loop();
    ensure(Val.of(loop.start()), header);
    ensure(Val.of(loop.limit()), header);
    int var = slot(key(Val.of(l.var()), u));
    push(loop.start(), header);
    mv.visitVarInsn(ISTORE, var);
    mv.visitVarInsn(ILOAD, var);
    push(loop.limit(), header);
    mv.visitJumpInsn(compareJump(exitCond(loop).negate()), skip);
  }

  /** The instances that {@code u} stands for: every instance of a block for {@link #ALL}, else itself. */
  private List<Integer> instancesOf(int u) {
    if (u != ALL) return List.of(u);
    List<Integer> all = new ArrayList<>();
    for (int c = 0; c < Jam.WIDTH; c++) all.add(c);
    return all;
  }

  /** The rest of a counted loop whose variable is set and first test passed: body, step, test, back. */
  private void loopBack(Level l, int u, Runnable body) {
    Loop loop = l.loop();
    int var = slot(key(Val.of(l.var()), u));
    Label top = new Label();
    mv.visitLabel(top);
    body.run();
    advance(var, () -> code.pushInt(loop.step()));
    mv.visitVarInsn(ILOAD, var);
    push(loop.limit(), u == ALL ? headerInstance(l) : u);
    mv.visitJumpInsn(compareJump(exitCond(loop)), top);
  }

  /** The body of level {@code l} for instance {@code u}: its parts in order, in a scope of their own. */
  private void body(Level l, int u) {
    scopes.push(new HashSet<>());
    List<Part> parts = l.parts();
    for (int p = 0; p < parts.size(); p++) {
      if (parts.get(p) instanceof Part.Segment s) segment(l, s, p == parts.size() - 1, u);
      else level((Level) parts.get(p), u);
    }
    scopes.pop();
  }

  /** Segment {@code s} of {@code l} for instance {@code u}; the last one also computes and assigns the finals. */
  private void segment(Level l, Part.Segment s, boolean last, int u) {
    scopes.push(new HashSet<>());
    for (Val v : roots(l, s, last)) ensure(v, u);
    for (Store st : s.stores()) code.store(st, operands(u));
    if (last) assignFinals(l, u);
    scopes.pop();
  }

  private List<Val> roots(Level l, Part.Segment s, boolean last) {
    List<Val> roots = new ArrayList<>();
    for (Store st : s.stores()) {
      roots.add(Val.of(st.predicate()));
      roots.add(Val.of(st.index()));
      roots.add(Val.of(st.value()));
      if (st.row() != null) roots.add(Val.row(st.array(), st.row()));
    }
    if (last) {
      for (Node f : l.finals()) roots.add(Val.of(f));
    }
    return roots;
  }

  /** Assigns the finals computed with the last segment: carried values, or the reductions. */
  private void assignFinals(Level l, int u) {
    if (l.loop() == null && split) {
      // Elements read no accumulator, so combining one by one equals combining simultaneously.
      for (Reduction r : t.reductions()) code.combine(r, accLocals[r.acc()], operands(u));
      return;
    }
    // Push every new value before assigning any: an update may read another carried value.
    List<Node> finals = l.finals();
    for (Node f : finals) push(f, u);
    for (int s = finals.size() - 1; s >= 0; s--) {
      Type type = finals.get(s).type();
      int target = l.loop() == null ? accLocals[t.reductions().get(s).acc()] : carriedSlot(l.loop(), s, u);
      mv.visitVarInsn(storeOp(type), target);
    }
  }

  // ---- unroll and jam ---------------------------------------------------------------------------------

  /**
   * The iterations of jammed level {@code own.level()}, its variable in local {@code var} and the number left
   * in local {@code remaining}: blocks of {@link Jam#WIDTH} while that many remain and the checked bounds
   * agree, one iteration at a time otherwise.
   */
  private void blocks(Jam own, int var, int remaining, Runnable pushStep) {
    if (own.inLanes()) {
      lanes(own, var, remaining, pushStep);
      return;
    }
    Level l = own.level();
    Label top = new Label();
    Label single = new Label();
    Label done = new Label();
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, remaining);
    code.pushInt(Jam.WIDTH);
    mv.visitJumpInsn(IF_ICMPLT, single);
    jam = own;
    scopes.push(new HashSet<>());
    for (int u = 0; u < Jam.WIDTH; u++) {
      mv.visitVarInsn(ILOAD, var);
      if (u > 0) {
        pushStep.run();
        code.pushInt(u);
        mv.visitInsn(IMUL);
        mv.visitInsn(IADD);
      }
      mv.visitVarInsn(ISTORE, slot(key(Val.of(l.var()), u)));
    }
    checks(own, single);
    List<Part> parts = l.parts();
    for (int p = 0; p < parts.size(); p++) {
      if (parts.get(p) instanceof Part.Segment s) {
        for (int u = 0; u < Jam.WIDTH; u++) segment(l, s, p == parts.size() - 1, u);
      } else {
        inBlock((Level) parts.get(p));
      }
    }
    scopes.pop();
    jam = null;
    mv.visitVarInsn(ILOAD, var);
    pushStep.run();
    code.pushInt(Jam.WIDTH);
    mv.visitInsn(IMUL);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, var);
    mv.visitIincInsn(remaining, -Jam.WIDTH);
    mv.visitJumpInsn(GOTO, top);
    oneAtATime(l, var, remaining, pushStep, single, top, done);
  }

  /**
   * At {@code single}: one iteration of level {@code l} as Java runs it, then back to {@code top}; to
   * {@code done} when none remains.
   */
  private void oneAtATime(Level l, int var, int remaining, Runnable pushStep, Label single, Label top, Label done) {
    mv.visitLabel(single);
    mv.visitVarInsn(ILOAD, remaining);
    mv.visitJumpInsn(IFEQ, done);
    body(l, SHARED);
    advance(var, pushStep);
    mv.visitIincInsn(remaining, -1);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(done);
  }

  /**
   * The iterations of level {@code own.level()} jammed in lanes, its variable in local {@code var} and the
   * number left in local {@code remaining}, in blocks of up to {@link Jam#LANES} (one at a time once fewer than
   * {@link Jam#MIN_LANES} remain): for each lane in turn, the
   * segment before the inner loop and its carried values' initial values; the inner loop's bounds, and where
   * it runs, each lane's lane values; the inner loop, each iteration computing what is the same for all lanes
   * and then running the lane loop; then for each lane in turn, the segment after it. Every lane performs its
   * iteration's operations in Java's order.
   */
  private void lanes(Jam own, int var, int remaining, Runnable pushStep) {
    Level l = own.level();
    Level inner = own.lanesOf();
    Loop loop = inner.loop();
    List<Part> parts = l.parts();
    int count = newLocal(1);
    int lane = newLocal(1);
    Label top = new Label();
    Label single = new Label();
    Label done = new Label();
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, remaining);
    code.pushInt(Jam.MIN_LANES);
    mv.visitJumpInsn(IF_ICMPLT, single);
    mv.visitVarInsn(ILOAD, remaining);
    code.pushInt(Jam.LANES);
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
    mv.visitVarInsn(ISTORE, count);
    jam = own;
    scopes.push(new HashSet<>());
    eachLane(lane, count, var, pushStep, () -> {
      if (parts.size() == 3) segment(l, (Part.Segment) parts.get(0), false, LANE);
      for (int s = 0; s < loop.carried().size(); s++) {
        Carried cv = loop.carried().get(s);
        ensure(Val.of(cv.init()), LANE);
        toLane(carriedVal(loop, s), lane, cv.init());
      }
    });
    Label skip = new Label();
    scopes.push(new HashSet<>());
    firstTest(inner, SHARED, SHARED, skip);
    for (Val v : hoisting.preheader(inner)) {
      if (!own.dependent(v)) ensure(v, SHARED);
    }
    eachLane(lane, count, var, pushStep, () -> {
      for (Val v : own.laneValues()) {
        ensure(v, LANE);
        toLane(v, lane, v.node());
      }
    });
    loopBack(inner, SHARED, () -> {
      scopes.push(new HashSet<>());
      for (Node f : inner.finals()) {
        for (Val v : Val.postOrder(Val.of(f))) {
          if (!v.isLeaf() && !own.dependent(v)) ensure(v, SHARED);
        }
      }
      eachLane(lane, count, var, pushStep, () -> {
        for (Val v : own.laneValues()) fromLane(v, lane);
        for (int s = 0; s < loop.carried().size(); s++) fromLane(carriedVal(loop, s), lane);
        List<Node> updates = inner.finals();
        for (Node f : updates) ensure(Val.of(f), LANE);
        for (int s = 0; s < updates.size(); s++) toLane(carriedVal(loop, s), lane, updates.get(s));
      });
      scopes.pop();
    });
    mv.visitLabel(skip);
    scopes.pop();
    eachLane(lane, count, var, pushStep, () -> {
      for (int s = 0; s < loop.carried().size(); s++) fromLane(carriedVal(loop, s), lane);
      segment(l, (Part.Segment) parts.get(parts.size() - 1), true, LANE);
    });
    scopes.pop();
    jam = null;
    mv.visitVarInsn(ILOAD, var);
    pushStep.run();
    mv.visitVarInsn(ILOAD, count);
    mv.visitInsn(IMUL);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, var);
    mv.visitVarInsn(ILOAD, remaining);
    mv.visitVarInsn(ILOAD, count);
    mv.visitInsn(ISUB);
    mv.visitVarInsn(ISTORE, remaining);
    mv.visitJumpInsn(GOTO, top);
    oneAtATime(l, var, remaining, pushStep, single, top, done);
  }

  /**
   * A lane loop: {@code body} for each lane of the block, local {@code lane} counting them from 0 to local
   * {@code count}, with the jammed level's variable of the lane ({@code var + lane * step}) set first.
   */
  private void eachLane(int lane, int count, int var, Runnable pushStep, Runnable body) {
    Label top = new Label();
    Label end = new Label();
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, lane);
    mv.visitVarInsn(ILOAD, lane);
    mv.visitVarInsn(ILOAD, count);
    mv.visitJumpInsn(IF_ICMPGE, end);
    mv.visitLabel(top);
    scopes.push(new HashSet<>());
    mv.visitVarInsn(ILOAD, var);
    mv.visitVarInsn(ILOAD, lane);
    pushStep.run();
    mv.visitInsn(IMUL);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, slot(key(Val.of(jam.level().var()), LANE)));
    body.run();
    scopes.pop();
    mv.visitIincInsn(lane, 1);
    mv.visitVarInsn(ILOAD, lane);
    mv.visitVarInsn(ILOAD, count);
    mv.visitJumpInsn(IF_ICMPLT, top);
    mv.visitLabel(end);
  }

  /** Stores {@code value} (computed for the lane) into the lane's element of {@code v}'s array by lane. */
  private void toLane(Val v, int lane, Node value) {
    mv.visitVarInsn(ALOAD, laneArrays.get(v));
    mv.visitVarInsn(ILOAD, lane);
    push(value, LANE);
    mv.visitInsn(IASTORE + laneOffset(v));
  }

  /** Makes {@code v}'s value for the lane, from its array by lane, available in the current scope. */
  private void fromLane(Val v, int lane) {
    Key k = key(v, LANE);
    mv.visitVarInsn(ALOAD, laneArrays.get(v));
    mv.visitVarInsn(ILOAD, lane);
    mv.visitInsn(IALOAD + laneOffset(v));
    mv.visitVarInsn(storeOp(v.node().type()), slot(k));
    scopes.peek().add(k);
  }

  /** The offset from the int array instructions to those of {@code v}'s array by lane. */
  private static int laneOffset(Val v) {
    return switch (v.node().type().stackType()) {
      case LONG -> LALOAD - IALOAD;
      case FLOAT -> FALOAD - IALOAD;
      case DOUBLE -> DALOAD - IALOAD;
      default -> 0;
    };
  }

  /** Jumps to {@code fail} unless every checked loop has the same predicate and bounds for all instances. */
  private void checks(Jam own, Label fail) {
    for (Level l : own.checked()) {
      Loop loop = l.loop();
      Label none = new Label();
      if (!loop.predicate().equals(Const.TRUE)) {
        sameForAll(loop.predicate(), fail);
        branchIfFalse(loop.predicate(), 0, none);
      }
      // Bounds are computed only where the predicate holds, as Java does; they stay valid in this scope only.
      scopes.push(new HashSet<>());
      sameForAll(loop.start(), fail);
      sameForAll(loop.limit(), fail);
      scopes.pop();
      mv.visitLabel(none);
    }
  }

  private void sameForAll(Node n, Label fail) {
    for (int u = 0; u < Jam.WIDTH; u++) ensure(Val.of(n), u);
    for (int u = 1; u < Jam.WIDTH; u++) {
      push(n, 0);
      push(n, u);
      mv.visitJumpInsn(IF_ICMPNE, fail);
    }
  }

  /** Inner level {@code l} inside a block: once for all instances, or once for each. */
  private void inBlock(Level l) {
    if (jam.fusion(l) == Jam.Fusion.SEPARATE) {
      for (int u = 0; u < Jam.WIDTH; u++) level(l, u);
      return;
    }
    Label skip = new Label();
    scopes.push(new HashSet<>());
    enter(l, ALL, headerInstance(l), skip);
    loopBack(l, ALL, () -> {
      scopes.push(new HashSet<>());
      List<Part> parts = l.parts();
      for (int p = 0; p < parts.size(); p++) {
        if (parts.get(p) instanceof Part.Segment s) jammedSegment(l, s, p == parts.size() - 1);
        else inBlock((Level) parts.get(p));
      }
      scopes.pop();
    });
    mv.visitLabel(skip);
    scopes.pop();
  }

  /** The instance whose predicate and bounds a loop run once for all instances uses. */
  private int headerInstance(Level l) {
    return jam.fusion(l) == Jam.Fusion.CHECKED ? 0 : SHARED;
  }

  /** A segment of a loop run once for all instances: all their values, then all their stores, then finals. */
  private void jammedSegment(Level l, Part.Segment s, boolean last) {
    scopes.push(new HashSet<>());
    List<Val> roots = roots(l, s, last);
    for (int u = 0; u < Jam.WIDTH; u++) {
      for (Val v : roots) ensure(v, u);
    }
    for (int u = 0; u < Jam.WIDTH; u++) {
      for (Store st : s.stores()) code.store(st, operands(u));
    }
    if (last) {
      for (int u = 0; u < Jam.WIDTH; u++) assignFinals(l, u);
    }
    scopes.pop();
  }

  // ---- values -----------------------------------------------------------------------------------------

  private NodeEmitter.Operands operands(int u) {
    return instances[u + 1];
  }

  /**
   * The key of value {@code v} for instance {@code u}: shared unless a block is being emitted and {@code v}
   * depends on the instance.
   */
  private Key key(Val v, int u) {
    Val canonical = v.node() instanceof LoopOut o ? Val.of(new CarriedVar(o.loop(), o.slot(), o.type())) : v;
    return new Key(canonical, u == SHARED || jam == null || !jam.dependent(v) ? SHARED : u);
  }

  private int slot(Key k) {
    return slots.computeIfAbsent(k, x -> newLocal(!x.val().isRow() && x.val().node().type().isWide() ? 2 : 1));
  }

  private int carriedSlot(Loop loop, int s, int u) {
    return slot(key(carriedVal(loop, s), u));
  }

  private static Val carriedVal(Loop loop, int s) {
    return Val.of(new CarriedVar(loop.id(), s, loop.carried().get(s).type()));
  }

  private boolean available(Key k) {
    for (Set<Key> scope : scopes) {
      if (scope.contains(k)) return true;
    }
    return false;
  }

  /** Computes {@code v} for instance {@code u} into its local, with what it needs, unless already valid here. */
  private void ensure(Val v, int u) {
    if (v.isLeaf()) return;
    Key k = key(v, u);
    if (available(k)) return;
    for (Val op : v.operands()) ensure(op, u);
    if (v.isRow()) {
      mv.visitVarInsn(ALOAD, arrayLocals[v.rowOf()]);
      push(v.node(), u);
      mv.visitInsn(AALOAD);
      mv.visitVarInsn(ASTORE, slot(k));
    } else {
      code.value(v.node(), operands(u));
      mv.visitVarInsn(storeOp(v.node().type()), slot(k));
    }
    scopes.peek().add(k);
  }

  /**
   * Pushes the value of {@code n} for instance {@code u}: a constant, a local of the generator's, or a value
   * computed earlier.
   */
  private void push(Node n, int u) {
    if (n instanceof Const c) {
      code.pushConst(c);
      return;
    }
    if (n instanceof Acc a) {
      mv.visitVarInsn(loadOp(a.type()), accLocals[a.index()]);
      return;
    }
    Val v = Val.of(n);
    Key k = key(v, u);
    if (!v.isLeaf() && !available(k)) throw new IllegalStateException("not computed here: " + n);
    mv.visitVarInsn(loadOp(n.type()), slot(k));
  }

  private void pushArray(int array, Node row, int u) {
    if (row == null) {
      mv.visitVarInsn(ALOAD, arrayLocals[array]);
      return;
    }
    Key k = key(Val.row(array, row), u);
    if (!available(k)) throw new IllegalStateException("row not loaded here: " + row);
    mv.visitVarInsn(ALOAD, slot(k));
  }

  // ---- small pieces -----------------------------------------------------------------------------------

  private void branchIfFalse(Node condition, int u, Label target) {
    if (condition.equals(Const.TRUE)) return;
    push(condition, u);
    mv.visitJumpInsn(IFEQ, target);
  }

  /** {@code var += step}, the step pushed by {@code pushStep}. */
  private void advance(int var, Runnable pushStep) {
    mv.visitVarInsn(ILOAD, var);
    pushStep.run();
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, var);
  }

  /**
   * The loop's exit test as a relation that holds while it runs. Guards make every loop count, so a
   * {@code !=} test is the same as the ordered one in the step's direction, which C2 counts better.
   */
  private static Cond exitCond(Loop loop) {
    if (loop.cond() != Cond.NE) return loop.cond();
    return loop.step() > 0 ? Cond.LT : Cond.GT;
  }

  /** The {@code if_icmp<c>} opcode. */
  private static int compareJump(Cond c) {
    return NodeEmitter.ifOpcode(c) - IFEQ + IF_ICMPEQ;
  }

  /**
   * Pushes the trip count of {@code loop} from its variable (local {@code var}, set to the start, and the
   * first test passed) to its limit, as {@link io.looplift.ir.LoopShape#trips} counts it, in long arithmetic.
   */
  private void tripCount(Loop loop, int var, int u) {
    Cond c = exitCond(loop);
    boolean up = c == Cond.LT || c == Cond.LE;
    if (up) push(loop.limit(), u); else mv.visitVarInsn(ILOAD, var);
    mv.visitInsn(I2L);
    if (up) mv.visitVarInsn(ILOAD, var); else push(loop.limit(), u);
    mv.visitInsn(I2L);
    mv.visitInsn(LSUB);
    if (c == Cond.LE || c == Cond.GE) {
      mv.visitInsn(LCONST_1);
      mv.visitInsn(LADD);
    }
    long abs = Math.abs((long) loop.step());
    if (abs != 1) {
      mv.visitLdcInsn(abs - 1);
      mv.visitInsn(LADD);
      mv.visitLdcInsn(abs);
      mv.visitInsn(LDIV);
    }
    mv.visitInsn(L2I);
  }
}
