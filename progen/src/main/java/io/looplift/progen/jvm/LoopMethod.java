package io.looplift.progen.jvm;

import static org.objectweb.asm.Opcodes.*;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * One loop method of a kernel class: prologue (typed array locals, decoded parameters and accumulators,
 * hoisted loop-invariant nodes), the loop, and the epilogue writing accumulators back. Single use.
 */
final class LoopMethod {
  // Arguments of the static loop methods, in RUN_DESC order.
  private static final int ARRAYS = 0;
  private static final int PARAMS = 1;
  private static final int ACCS = 2;
  private static final int START = 3;
  private static final int STEP = 4;
  private static final int K_FROM = 5;
  private static final int K_TO = 6;

  /** Interleaved partial accumulators for reassociated floating-point sums and products. */
  private static final int UNROLL = 4;
  /**
   * Bodies larger than this are not unrolled: HotSpot does not JIT-compile methods over 8000 bytes of
   * bytecode, and an interpreted kernel is far slower than a latency-bound one.
   */
  private static final int MAX_UNROLLED_NODES = 96;

  private final LoopTemplate t;
  private final boolean split;
  private final boolean unitStride;
  private final List<Node> nodes;
  private final Set<Node> invariant = new HashSet<>();
  private final Map<Node, Integer> slots = new HashMap<>();
  private final int[] arrayLocals;
  private final int[] accLocals;
  /** Per reduction: the UNROLL partial accumulators when it is unrolled, else null. */
  private final int[][] partials;
  private final boolean unrolled;
  private int nextLocal = K_TO + 1;
  private int iLocal;
  private MethodVisitor mv;

  LoopMethod(LoopTemplate t, boolean split, boolean unitStride) {
    this.t = t;
    this.split = split;
    this.unitStride = unitStride;
    this.nodes = Nodes.postOrder(split ? t.partialRoots() : t.roots());
    for (Node n : nodes) {
      if (n instanceof Index || n instanceof Load || n instanceof Acc) continue;
      if (Nodes.children(n).stream().allMatch(invariant::contains)) invariant.add(n);
    }
    this.arrayLocals = new int[t.arrays().size()];
    this.accLocals = new int[t.accumulators().size()];
    this.partials = new int[t.reductions().size()][];
    boolean anyReassociating = split && t.reductions().stream().anyMatch(r -> r.op().reassociates(r.type()));
    this.unrolled = anyReassociating && nodes.size() <= MAX_UNROLLED_NODES;
  }

  void emit(ClassWriter cw, String name, String desc) {
    mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, name, desc, null, null);
    mv.visitCode();
    prologue();
    if (unitStride) unitLoop(); else stridedLoop();
    epilogue();
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  private int newLocal(Type type) {
    int slot = nextLocal;
    nextLocal += type.isWide() ? 2 : 1;
    return slot;
  }

  private void prologue() {
    boolean[] used = new boolean[arrayLocals.length];
    for (Node n : nodes) {
      if (n instanceof Load l) used[l.array()] = true;
    }
    for (Store s : t.stores()) used[s.array()] = true;
    for (int a = 0; a < used.length; a++) {
      if (!used[a]) continue;
      arrayLocals[a] = newLocal(Type.INT);
      mv.visitVarInsn(ALOAD, ARRAYS);
      pushInt(a);
      mv.visitInsn(AALOAD);
      mv.visitTypeInsn(CHECKCAST, "[" + t.arrays().get(a).descriptor());
      mv.visitVarInsn(ASTORE, arrayLocals[a]);
    }
    for (int j = 0; j < accLocals.length; j++) {
      Type type = t.accumulators().get(j);
      accLocals[j] = newLocal(type);
      decode(ACCS, j, type);
      mv.visitVarInsn(storeOp(type), accLocals[j]);
    }
    if (unrolled) {
      for (int r = 0; r < partials.length; r++) {
        Reduction red = t.reductions().get(r);
        if (!red.op().reassociates(red.type())) continue;
        // Partial 0 is the accumulator itself; the others start from the identity.
        partials[r] = new int[UNROLL];
        partials[r][0] = accLocals[red.acc()];
        for (int u = 1; u < UNROLL; u++) {
          partials[r][u] = newLocal(red.type());
          pushConst(Const.ofBits(red.type(), red.op().identity(red.type())));
          mv.visitVarInsn(storeOp(red.type()), partials[r][u]);
        }
      }
    }
    // Hoist invariant nodes: pure, and the loop runs at least once (run returns early otherwise).
    for (Node n : nodes) {
      if (invariant.contains(n)) compute(n);
    }
  }

  /** Pushes {@code source[index]} decoded from raw bits to a value of computational type {@code type}. */
  private void decode(int source, int index, Type type) {
    mv.visitVarInsn(ALOAD, source);
    pushInt(index);
    mv.visitInsn(LALOAD);
    switch (type) {
      case LONG -> { }
      case FLOAT -> {
        mv.visitInsn(L2I);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
      }
      case DOUBLE -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "longBitsToDouble", "(J)D", false);
      default -> mv.visitInsn(L2I);
    }
  }

  private void epilogue() {
    if (unrolled) {
      for (int r = 0; r < partials.length; r++) {
        if (partials[r] == null) continue;
        Reduction red = t.reductions().get(r);
        int[] p = partials[r];
        // (p0 op p1) op (p2 op p3): a fixed tree, so results are the same run to run.
        combinePartials(red, p[0], p[1]);
        combinePartials(red, p[2], p[3]);
        combinePartials(red, p[0], p[2]);
      }
    }
    for (int j = 0; j < accLocals.length; j++) {
      Type type = t.accumulators().get(j);
      mv.visitVarInsn(ALOAD, ACCS);
      pushInt(j);
      mv.visitVarInsn(loadOp(type), accLocals[j]);
      switch (type) {
        case LONG -> { }
        case FLOAT -> {
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
          mv.visitInsn(I2L);
        }
        case DOUBLE -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false);
        default -> mv.visitInsn(I2L);
      }
      mv.visitInsn(LASTORE);
    }
  }

  private void combinePartials(Reduction red, int into, int from) {
    mv.visitVarInsn(loadOp(red.type()), into);
    mv.visitVarInsn(loadOp(red.type()), from);
    mv.visitInsn(arith(red.op() == ReduceOp.ADD ? IADD : IMUL, red.type()));
    mv.visitVarInsn(storeOp(red.type()), into);
  }

  /** {@code for (int i = start + kFrom, hi = start + kTo; i < hi; i++) body}, unrolled when asked. */
  private void unitLoop() {
    iLocal = newLocal(Type.INT);
    int hi = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, iLocal);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_TO);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, hi);
    if (unrolled) {
      // No overflow: kTo - kFrom >= 0 and mainHi <= hi.
      int mainHi = unrolledBound(iLocal);
      countedLoop(iLocal, mainHi, UNROLL, () -> mv.visitIincInsn(iLocal, 1));
    }
    countedLoop(iLocal, hi, 1, () -> mv.visitIincInsn(iLocal, 1));
  }

  /**
   * A new local holding {@code base + ((kTo - kFrom) & -UNROLL)}: where the unrolled main loop, counting
   * from the value in local {@code base}, stops and the remainder loop takes over.
   */
  private int unrolledBound(int base) {
    int bound = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, base);
    mv.visitVarInsn(ILOAD, K_TO);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitInsn(ISUB);
    pushInt(-UNROLL);
    mv.visitInsn(IAND);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, bound);
    return bound;
  }

  /** {@code for (int k = kFrom, i = start + kFrom * step; k < kTo; k++, i += step) body}. */
  private void stridedLoop() {
    iLocal = newLocal(Type.INT);
    int k = newLocal(Type.INT);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitVarInsn(ISTORE, k);
    mv.visitVarInsn(ILOAD, START);
    mv.visitVarInsn(ILOAD, K_FROM);
    mv.visitVarInsn(ILOAD, STEP);
    mv.visitInsn(IMUL);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, iLocal);
    Runnable advance = () -> {
      mv.visitIincInsn(k, 1);
      mv.visitVarInsn(ILOAD, iLocal);
      mv.visitVarInsn(ILOAD, STEP);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ISTORE, iLocal);
    };
    if (unrolled) {
      int kMain = unrolledBound(K_FROM);
      countedLoop(k, kMain, UNROLL, advance);
    }
    countedLoop(k, K_TO, 1, advance);
  }

  /**
   * javac's loop shape: jump to the test at the bottom; {@code copies} bodies, each followed by
   * {@code advance}, while {@code counter < limit}.
   */
  private void countedLoop(int counter, int limit, int copies, Runnable advance) {
    Label body = new Label();
    Label test = new Label();
    mv.visitJumpInsn(GOTO, test);
    mv.visitLabel(body);
    for (int u = 0; u < copies; u++) {
      iteration(u);
      advance.run();
    }
    mv.visitLabel(test);
    mv.visitVarInsn(ILOAD, counter);
    mv.visitVarInsn(ILOAD, limit);
    mv.visitJumpInsn(IF_ICMPLT, body);
  }

  /** One iteration: every distinct node once, then stores in order, then the reductions. */
  private void iteration(int u) {
    for (Node n : nodes) {
      if (!invariant.contains(n) && !(n instanceof Index) && !(n instanceof Acc)) compute(n);
    }
    for (Store s : t.stores()) store(s);
    if (split) {
      // Elements read no accumulator, so updating one by one equals updating simultaneously.
      for (int r = 0; r < partials.length; r++) {
        Reduction red = t.reductions().get(r);
        combine(red, partials[r] != null ? partials[r][u] : accLocals[red.acc()]);
      }
    } else {
      // Push every new value before assigning any: updates may read other accumulators.
      List<Reduction> rs = t.reductions();
      for (Reduction r : rs) push(r.update());
      for (int r = rs.size() - 1; r >= 0; r--) mv.visitVarInsn(storeOp(rs.get(r).type()), accLocals[rs.get(r).acc()]);
    }
  }

  private void store(Store s) {
    if (s.predicate().equals(Const.FALSE)) return;
    Label skip = new Label();
    boolean conditional = !s.predicate().equals(Const.TRUE);
    if (conditional) {
      push(s.predicate());
      mv.visitJumpInsn(IFEQ, skip);
    }
    mv.visitVarInsn(ALOAD, arrayLocals[s.array()]);
    push(s.index());
    push(s.value());
    switch (s.elementType()) {
      case BOOLEAN -> {
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IAND);
        mv.visitInsn(BASTORE);
      }
      case BYTE -> {
        mv.visitInsn(I2B);
        mv.visitInsn(BASTORE);
      }
      case CHAR -> {
        mv.visitInsn(I2C);
        mv.visitInsn(CASTORE);
      }
      case SHORT -> {
        mv.visitInsn(I2S);
        mv.visitInsn(SASTORE);
      }
      case INT -> mv.visitInsn(IASTORE);
      case LONG -> mv.visitInsn(LASTORE);
      case FLOAT -> mv.visitInsn(FASTORE);
      case DOUBLE -> mv.visitInsn(DASTORE);
    }
    if (conditional) mv.visitLabel(skip);
  }

  /** {@code target = op.combine(target, element)} with the operator's Java semantics. */
  private void combine(Reduction r, int target) {
    Type type = r.type();
    int load = loadOp(type);
    switch (r.op()) {
      case ADD, MUL, AND, OR, XOR -> {
        mv.visitVarInsn(load, target);
        push(r.element());
        mv.visitInsn(arith(switch (r.op()) {
          case ADD -> IADD;
          case MUL -> IMUL;
          case AND -> IAND;
          case OR -> IOR;
          default -> IXOR;
        }, type));
      }
      case MIN, MAX -> {
        mv.visitVarInsn(load, target);
        push(r.element());
        minMax(r.op() == ReduceOp.MIN ? "min" : "max", type);
      }
      default -> {
        // e REL acc ? e : acc, with javac's choice of fcmpg for < and <=, fcmpl for > and >=.
        Label keep = new Label();
        Label end = new Label();
        push(r.element());
        mv.visitVarInsn(load, target);
        boolean less = r.op() == ReduceOp.SELECT_LT || r.op() == ReduceOp.SELECT_LE;
        int falseJump = switch (r.op()) {
          case SELECT_LT -> IFGE;
          case SELECT_LE -> IFGT;
          case SELECT_GT -> IFLE;
          default -> IFLT;
        };
        switch (type) {
          case INT -> mv.visitJumpInsn(falseJump - IFEQ + IF_ICMPEQ, keep);
          case LONG -> {
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(falseJump, keep);
          }
          case FLOAT -> {
            mv.visitInsn(less ? FCMPG : FCMPL);
            mv.visitJumpInsn(falseJump, keep);
          }
          default -> {
            mv.visitInsn(less ? DCMPG : DCMPL);
            mv.visitJumpInsn(falseJump, keep);
          }
        }
        push(r.element());
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(keep);
        mv.visitVarInsn(load, target);
        mv.visitLabel(end);
      }
    }
    mv.visitVarInsn(storeOp(type), target);
  }

  /** Computes {@code n} from its operands' locals and stores it in a fresh local. */
  private void compute(Node n) {
    if (n instanceof Const || n instanceof Index || n instanceof Acc) return;
    if (n instanceof Param p) {
      decode(PARAMS, p.index(), n.type());
    } else if (n instanceof Load l) {
      mv.visitVarInsn(ALOAD, arrayLocals[l.array()]);
      push(l.index());
      mv.visitInsn(switch (l.elementType()) {
        case BOOLEAN, BYTE -> BALOAD;
        case CHAR -> CALOAD;
        case SHORT -> SALOAD;
        case INT -> IALOAD;
        case LONG -> LALOAD;
        case FLOAT -> FALOAD;
        case DOUBLE -> DALOAD;
      });
    } else if (n instanceof Unary u) {
      unary(u);
    } else if (n instanceof Binary b) {
      binary(b);
    } else if (n instanceof Compare c) {
      Label yes = new Label();
      Label end = new Label();
      push(c.x());
      push(c.y());
      int ifOp = switch (c.cond()) {
        case EQ -> IFEQ;
        case NE -> IFNE;
        case LT -> IFLT;
        case GE -> IFGE;
        case GT -> IFGT;
        case LE -> IFLE;
      };
      if (c.x().type() == Type.INT) {
        mv.visitJumpInsn(ifOp - IFEQ + IF_ICMPEQ, yes);
      } else {
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(ifOp, yes);
      }
      mv.visitInsn(ICONST_0);
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(yes);
      mv.visitInsn(ICONST_1);
      mv.visitLabel(end);
    } else if (n instanceof Select s) {
      // Both arms are already computed (pure), so this is a plain conditional move.
      Label no = new Label();
      Label end = new Label();
      push(s.cond());
      mv.visitJumpInsn(IFEQ, no);
      push(s.ifTrue());
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(no);
      push(s.ifFalse());
      mv.visitLabel(end);
    } else if (n instanceof Convert c) {
      push(c.x());
      convert(c.x().type(), c.to());
    } else if (n instanceof Call c) {
      for (Node a : c.args()) push(a);
      mv.visitMethodInsn(INVOKESTATIC, c.owner(), c.name(), c.desc(), false);
    } else {
      throw new IllegalArgumentException("unsupported node " + n);
    }
    // One slot per node, reused by every unrolled copy of the body.
    int slot = slots.computeIfAbsent(n, x -> newLocal(x.type()));
    mv.visitVarInsn(storeOp(n.type()), slot);
  }

  private void unary(Unary u) {
    Type type = u.x().type();
    push(u.x());
    switch (u.op()) {
      case NEG -> mv.visitInsn(arith(INEG, type));
      case NOT -> {
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IXOR);
      }
      case ABS -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "abs", "(" + type.descriptor() + ")" + type.descriptor(), false);
      case SQRT -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "sqrt", "(D)D", false);
    }
  }

  private void binary(Binary b) {
    Type type = b.x().type();
    push(b.x());
    push(b.y());
    if (type == Type.BOOLEAN) {
      mv.visitInsn(switch (b.op()) {
        case AND -> IAND;
        case OR -> IOR;
        case XOR -> IXOR;
        default -> throw new IllegalArgumentException(b.op() + " of booleans");
      });
      return;
    }
    switch (b.op()) {
      case ADD -> mv.visitInsn(arith(IADD, type));
      case SUB -> mv.visitInsn(arith(ISUB, type));
      case MUL -> mv.visitInsn(arith(IMUL, type));
      case DIV -> mv.visitInsn(arith(IDIV, type));
      case REM -> mv.visitInsn(arith(IREM, type));
      case AND -> mv.visitInsn(bitwise(IAND, type));
      case OR -> mv.visitInsn(bitwise(IOR, type));
      case XOR -> mv.visitInsn(bitwise(IXOR, type));
      case SHL -> mv.visitInsn(bitwise(ISHL, type));
      case SHR -> mv.visitInsn(bitwise(ISHR, type));
      case USHR -> mv.visitInsn(bitwise(IUSHR, type));
      case MIN -> minMax("min", type);
      case MAX -> minMax("max", type);
      case CMPL, CMPG -> {
        boolean g = b.op() == BinaryOp.CMPG;
        switch (type) {
          case INT -> mv.visitMethodInsn(INVOKESTATIC, "java/lang/Integer", "compare", "(II)I", false);
          case LONG -> mv.visitInsn(LCMP);
          case FLOAT -> mv.visitInsn(g ? FCMPG : FCMPL);
          default -> mv.visitInsn(g ? DCMPG : DCMPL);
        }
      }
    }
  }

  private void minMax(String name, Type type) {
    char d = type.descriptor();
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", name, "(" + d + d + ")" + d, false);
  }

  /** The conversion instructions javac emits for a cast from computational type {@code from} to {@code to}. */
  private void convert(Type from, Type to) {
    switch (to) {
      case LONG -> mv.visitInsn(from == Type.INT ? I2L : from == Type.FLOAT ? F2L : D2L);
      case FLOAT -> mv.visitInsn(from == Type.INT ? I2F : from == Type.LONG ? L2F : D2F);
      case DOUBLE -> mv.visitInsn(from == Type.INT ? I2D : from == Type.LONG ? L2D : F2D);
      default -> {
        // To int first, then narrow: (byte) 3.7 is d2i; i2b in Java too.
        if (from == Type.LONG) mv.visitInsn(L2I);
        if (from == Type.FLOAT) mv.visitInsn(F2I);
        if (from == Type.DOUBLE) mv.visitInsn(D2I);
        if (to == Type.BYTE) mv.visitInsn(I2B);
        if (to == Type.CHAR) mv.visitInsn(I2C);
        if (to == Type.SHORT) mv.visitInsn(I2S);
      }
    }
  }

  /** Pushes the value of an already computed (or constant) node. */
  private void push(Node n) {
    if (n instanceof Const c) {
      pushConst(c);
    } else if (n instanceof Index) {
      mv.visitVarInsn(ILOAD, iLocal);
    } else if (n instanceof Acc a) {
      mv.visitVarInsn(loadOp(a.type()), accLocals[a.index()]);
    } else {
      mv.visitVarInsn(loadOp(n.type()), slots.get(n));
    }
  }

  private void pushConst(Const c) {
    switch (c.type()) {
      case LONG -> {
        if (c.bits() == 0 || c.bits() == 1) mv.visitInsn(LCONST_0 + (int) c.bits()); else mv.visitLdcInsn(c.bits());
      }
      case FLOAT -> {
        if (c.floatValue() != c.floatValue()) {
          // Keep the exact NaN bits rather than relying on how a boxed NaN reaches the constant pool.
          pushInt(c.intValue());
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
        } else {
          mv.visitLdcInsn(c.floatValue());
        }
      }
      case DOUBLE -> {
        if (c.doubleValue() != c.doubleValue()) {
          mv.visitLdcInsn(c.bits());
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "longBitsToDouble", "(J)D", false);
        } else {
          mv.visitLdcInsn(c.doubleValue());
        }
      }
      default -> pushInt(c.intValue());
    }
  }

  private void pushInt(int v) {
    if (v >= -1 && v <= 5) {
      mv.visitInsn(ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  /** The typed variant of an int arithmetic opcode: the JVM orders them I, L, F, D. */
  private static int arith(int intOpcode, Type type) {
    return intOpcode + switch (type) {
      case LONG -> 1;
      case FLOAT -> 2;
      case DOUBLE -> 3;
      default -> 0;
    };
  }

  /** The typed variant of an int bitwise or shift opcode: the JVM orders them I, L. */
  private static int bitwise(int intOpcode, Type type) {
    return intOpcode + (type == Type.LONG ? 1 : 0);
  }

  private static int loadOp(Type type) {
    return switch (type) {
      case LONG -> LLOAD;
      case FLOAT -> FLOAD;
      case DOUBLE -> DLOAD;
      default -> ILOAD;
    };
  }

  private static int storeOp(Type type) {
    return switch (type) {
      case LONG -> LSTORE;
      case FLOAT -> FSTORE;
      case DOUBLE -> DSTORE;
      default -> ISTORE;
    };
  }
}
