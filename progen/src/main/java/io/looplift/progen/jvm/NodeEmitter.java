package io.looplift.progen.jvm;

import static org.objectweb.asm.Opcodes.*;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The instructions of IR operations, written to one method: each operator becomes the instruction (or JDK
 * method call) javac emits for the same Java expression, so kernels compute Java's results bit for bit.
 * The method generator decides where values live; this class only asks it, through {@link Operands}, to
 * push an operand. Shared by the loop methods of flat kernels and the methods of nest kernels.
 */
final class NodeEmitter {
  /** Where an operation's operands are: the generator pushes each one when asked. */
  interface Operands {
    /** Pushes the value of {@code n}, computed earlier (or a constant). */
    void push(Node n);

    /** Pushes the one-dimensional array that argument {@code array} (or its row {@code row}, when not null) is. */
    void pushArray(int array, Node row);
  }

  private final MethodVisitor mv;
  private final int paramsLocal;

  /** An emitter writing to {@code mv}, whose local {@code paramsLocal} holds the launch's parameters (a long[]). */
  NodeEmitter(MethodVisitor mv, int paramsLocal) {
    this.mv = mv;
    this.paramsLocal = paramsLocal;
  }

  /**
   * Pushes the value of operation {@code n} (a parameter, load, length, operator, select, conversion or call),
   * its operands pushed by {@code in}.
   *
   * @throws IllegalArgumentException for leaves the generator holds itself (constants, loop variables,
   *     accumulators, carried values)
   */
  void value(Node n, Operands in) {
    if (n instanceof Param p) {
      decode(paramsLocal, p.index(), n.type());
    } else if (n instanceof Load l) {
      in.pushArray(l.array(), l.row());
      in.push(l.index());
      mv.visitInsn(switch (l.elementType()) {
        case BOOLEAN, BYTE -> BALOAD;
        case CHAR -> CALOAD;
        case SHORT -> SALOAD;
        case INT -> IALOAD;
        case LONG -> LALOAD;
        case FLOAT -> FALOAD;
        case DOUBLE -> DALOAD;
      });
    } else if (n instanceof Length l) {
      in.pushArray(l.array(), l.row());
      mv.visitInsn(ARRAYLENGTH);
    } else if (n instanceof Unary u) {
      unary(u, in);
    } else if (n instanceof Binary b) {
      binary(b, in);
    } else if (n instanceof Compare c) {
      Label yes = new Label();
      Label end = new Label();
      in.push(c.x());
      in.push(c.y());
      int ifOp = ifOpcode(c.cond());
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
      in.push(s.cond());
      mv.visitJumpInsn(IFEQ, no);
      in.push(s.ifTrue());
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(no);
      in.push(s.ifFalse());
      mv.visitLabel(end);
    } else if (n instanceof Convert c) {
      in.push(c.x());
      convert(c.x().type(), c.to());
    } else if (n instanceof Call c) {
      for (Node a : c.args()) in.push(a);
      mv.visitMethodInsn(INVOKESTATIC, c.owner(), c.name(), c.desc(), false);
    } else {
      throw new IllegalArgumentException("unsupported node " + n);
    }
  }

  /** The {@code if<cond>} opcode comparing an int with 0. */
  static int ifOpcode(Cond cond) {
    return switch (cond) {
      case EQ -> IFEQ;
      case NE -> IFNE;
      case LT -> IFLT;
      case GE -> IFGE;
      case GT -> IFGT;
      case LE -> IFLE;
    };
  }

  /** Performs store {@code s} where its predicate holds, truncating sub-int elements as the JVM's stores do. */
  void store(Store s, Operands in) {
    if (s.predicate().equals(Const.FALSE)) return;
    Label skip = new Label();
    boolean conditional = !s.predicate().equals(Const.TRUE);
    if (conditional) {
      in.push(s.predicate());
      mv.visitJumpInsn(IFEQ, skip);
    }
    in.pushArray(s.array(), s.row());
    in.push(s.index());
    in.push(s.value());
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

  /** {@code target = op.combine(target, element)} in local {@code target}, with the operator's Java semantics. */
  void combine(Reduction r, int target, Operands in) {
    Type type = r.type();
    int load = loadOp(type);
    switch (r.op()) {
      case ADD, MUL, AND, OR, XOR -> {
        mv.visitVarInsn(load, target);
        in.push(r.element());
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
        in.push(r.element());
        minMax(r.op() == ReduceOp.MIN ? "min" : "max", type);
      }
      default -> {
        // e REL acc ? e : acc, with javac's choice of fcmpg for < and <=, fcmpl for > and >=.
        Label keep = new Label();
        Label end = new Label();
        in.push(r.element());
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
        in.push(r.element());
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(keep);
        mv.visitVarInsn(load, target);
        mv.visitLabel(end);
      }
    }
    mv.visitVarInsn(storeOp(type), target);
  }

  /** Stores element {@code index} of the Object[] in local {@code arrays}, cast to {@code descriptor}, in local {@code local}. */
  void argument(int arrays, int index, String descriptor, int local) {
    mv.visitVarInsn(ALOAD, arrays);
    pushInt(index);
    mv.visitInsn(AALOAD);
    mv.visitTypeInsn(CHECKCAST, descriptor);
    mv.visitVarInsn(ASTORE, local);
  }

  /** Pushes {@code source[index]} (local {@code source} a long[] of raw bits) as a value of computational type {@code type}. */
  void decode(int source, int index, Type type) {
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

  /** Writes the value of local {@code local}, of computational type {@code type}, to {@code target[index]} as raw bits. */
  void encode(int target, int index, Type type, int local) {
    mv.visitVarInsn(ALOAD, target);
    pushInt(index);
    mv.visitVarInsn(loadOp(type), local);
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

  private void unary(Unary u, Operands in) {
    Type type = u.x().type();
    in.push(u.x());
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

  private void binary(Binary b, Operands in) {
    Type type = b.x().type();
    in.push(b.x());
    in.push(b.y());
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

  /** Pushes a constant, keeping the exact bits of NaNs. */
  void pushConst(Const c) {
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

  /** Pushes an int constant with the shortest instruction. */
  void pushInt(int v) {
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
  static int arith(int intOpcode, Type type) {
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

  static int loadOp(Type type) {
    return switch (type) {
      case LONG -> LLOAD;
      case FLOAT -> FLOAD;
      case DOUBLE -> DLOAD;
      default -> ILOAD;
    };
  }

  static int storeOp(Type type) {
    return switch (type) {
      case LONG -> LSTORE;
      case FLOAT -> FSTORE;
      case DOUBLE -> DSTORE;
      default -> ISTORE;
    };
  }
}
