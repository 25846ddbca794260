package io.looplift.analyzer;

import io.looplift.analyzer.LoopBody.ArraySlot;
import io.looplift.analyzer.LoopBody.Element;
import io.looplift.bridge.LoopBridge;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.LoopSite;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * Computes the {@link SymValue} of each instruction's result from its operands, as an ASM
 * {@link Interpreter} that {@link SymFrame} drives: primitive results are IR nodes, hash-consed in one
 * {@link Nodes.Table}; loop-invariant inputs (fields, array lengths, rows of invariant arrays of arrays)
 * become parameters or references of the {@link LoopBody}, each with the recipe that recomputes it before
 * the loop; rows that change with the loop variables become rows of an array of arrays; calls to small
 * static helpers (of any class outside the JDK) and to private or final methods on {@code this} are inlined
 * by walking the helper with a {@link BlockWalker}, inner loops included. Whatever a loop body may not do
 * is rejected with a {@link Rejection} whose message a user can read.
 *
 * <p>Three kinds of instructions never reach the ASM operations: the primitive array loads and stores, which
 * {@link SymFrame} executes with {@link #element}, {@link #load} and {@link #store} because they consult and
 * update its array memory; static calls and calls on {@code this}, which it executes with {@link #invoke}
 * and {@link #invokeInstance} so that an inlined helper continues its path; and jumps and returns, which
 * {@link BlockWalker} turns into path conditions and exits. One instance per loop and pass; not thread-safe.
 */
final class SymInterpreter extends Interpreter<SymValue> {
  private static final int MAX_INLINE_DEPTH = 4;
  private static final int MAX_INLINE_SIZE = 300;

  private final MethodContext ctx;
  private final LoopBody body;
  /**
   * The objects (by {@link SymValue#key}) a call of an abstract method was inlined on from the class that
   * implements it: the loop's class knows them only by their abstract type, so their fields are read through
   * the bridge ({@code getfield} of the implementing class would not verify there).
   */
  private final Set<String> knownByAbstractType = new HashSet<>();
  private final Nodes.Table table = new Nodes.Table();
  /** How many inlined helper calls deep the instructions being executed are (0: the loop body). */
  private int depth;
  /** The class whose code is being executed: the loop's, or that of an inlined helper of another class. */
  private ClassNode current;

  /** An interpreter for a loop of {@code ctx}'s method that records what the loop reads and writes in {@code body}. */
  SymInterpreter(MethodContext ctx, LoopBody body) {
    super(Opcodes.ASM9);
    this.ctx = ctx;
    this.body = body;
    this.current = ctx.owner;
  }

  /** The canonical instance of {@code node}. */
  Node n(Node node) { return table.intern(node); }

  /** What the loop reads and writes. */
  LoopBody body() { return body; }

  /** A new epoch of the loop's body (see {@link LoopBody#newEpoch}). */
  int newEpoch() { return body.newEpoch(); }

  /**
   * The IR node of a primitive value.
   *
   * @throws Rejection for a reference
   */
  Node node(SymValue v) {
    if (!v.isPrimitive()) throw new Rejection("uses an object reference as a number");
    return v.node();
  }

  // ---- ASM's operations ----------------------------------------------------------------------------

  /**
   * {@link SymValue#UNKNOWN} for any type: the analysis follows values from the instructions that compute
   * them, so a value known only by its type (ASM asks for one for the second slot of a long or double
   * local) is one it cannot follow.
   */
  @Override
  public SymValue newValue(Type type) {
    return SymValue.UNKNOWN;
  }

  /**
   * Constants and static fields: {@code iconst_*}, {@code lconst_*}, {@code fconst_*}, {@code dconst_*},
   * {@code bipush}, {@code sipush} and {@code ldc} of a number (each is its own recipe), {@code getstatic}
   * (a parameter, or an invariant reference).
   *
   * @throws Rejection for {@code aconst_null}, {@code ldc} of anything but a number, {@code new}, and a
   *     volatile field or one of a class the analysis cannot see
   */
  @Override
  public SymValue newOperation(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    return switch (op) {
      case Opcodes.ICONST_M1, Opcodes.ICONST_0, Opcodes.ICONST_1, Opcodes.ICONST_2, Opcodes.ICONST_3,
          Opcodes.ICONST_4, Opcodes.ICONST_5 -> constant(Const.ofInt(op - Opcodes.ICONST_0), insn);
      case Opcodes.LCONST_0, Opcodes.LCONST_1 -> constant(Const.ofLong(op - Opcodes.LCONST_0), insn);
      case Opcodes.FCONST_0, Opcodes.FCONST_1, Opcodes.FCONST_2 -> constant(Const.ofFloat(op - Opcodes.FCONST_0), insn);
      case Opcodes.DCONST_0, Opcodes.DCONST_1 -> constant(Const.ofDouble(op - Opcodes.DCONST_0), insn);
      case Opcodes.BIPUSH, Opcodes.SIPUSH -> constant(Const.ofInt(((IntInsnNode) insn).operand), insn);
      case Opcodes.LDC -> ldc((LdcInsnNode) insn);
      case Opcodes.GETSTATIC -> field((FieldInsnNode) insn, null);
      case Opcodes.ACONST_NULL -> throw new Rejection("uses null inside the loop");
      case Opcodes.NEW -> throw new Rejection("allocates inside the loop");
      default -> throw unsupported(insn);
    };
  }

  /**
   * Loads and stores of locals ({@code iload}...{@code aload}, {@code istore}...{@code astore}) and the
   * stack shuffles ({@code dup}, {@code dup_x1}, {@code dup_x2}, {@code dup2}, {@code dup2_x1},
   * {@code dup2_x2}, {@code swap}): the value itself, which {@link SymFrame} moves.
   *
   * @throws Rejection for a load of {@link SymValue#UNKNOWN}
   */
  @Override
  public SymValue copyOperation(AbstractInsnNode insn, SymValue value) {
    // Only a local can be UNKNOWN: the operand stack never holds it.
    if (value == SymValue.UNKNOWN) throw new Rejection("reads a local the analysis cannot follow");
    return value;
  }

  /**
   * Operations on one value: {@code ineg}...{@code dneg}, {@code iinc}, the primitive conversions
   * {@code i2l}...{@code i2s}, {@code getfield} of an invariant object and {@code arraylength} of an
   * invariant array (parameters).
   *
   * @throws Rejection for {@code putstatic}, {@code newarray}, {@code anewarray}, {@code athrow},
   *     {@code checkcast}, {@code instanceof}, {@code monitorenter}, {@code monitorexit},
   *     {@code tableswitch} and {@code lookupswitch}; for a field of an object, or the length of an array,
   *     that changes inside the loop; and for a volatile field or one of a class the analysis cannot see
   */
  @Override
  public SymValue unaryOperation(AbstractInsnNode insn, SymValue value) {
    int op = insn.getOpcode();
    return switch (op) {
      case Opcodes.INEG, Opcodes.LNEG, Opcodes.FNEG, Opcodes.DNEG -> unary(UnaryOp.NEG, value, insn);
      case Opcodes.IINC -> SymValue.primitive(
          n(Binary.of(BinaryOp.ADD, node(value), Const.ofInt(((IincInsnNode) insn).incr))), null);
      case Opcodes.I2L, Opcodes.F2L, Opcodes.D2L -> convert(value, io.looplift.ir.Type.LONG, insn);
      case Opcodes.I2F, Opcodes.L2F, Opcodes.D2F -> convert(value, io.looplift.ir.Type.FLOAT, insn);
      case Opcodes.I2D, Opcodes.L2D, Opcodes.F2D -> convert(value, io.looplift.ir.Type.DOUBLE, insn);
      case Opcodes.L2I, Opcodes.F2I, Opcodes.D2I -> convert(value, io.looplift.ir.Type.INT, insn);
      case Opcodes.I2B -> convert(value, io.looplift.ir.Type.BYTE, insn);
      case Opcodes.I2C -> convert(value, io.looplift.ir.Type.CHAR, insn);
      case Opcodes.I2S -> convert(value, io.looplift.ir.Type.SHORT, insn);
      case Opcodes.GETFIELD -> {
        if (!value.isInvariant()) throw new Rejection("reads a field of an object that changes inside the loop");
        yield field((FieldInsnNode) insn, value.recipe());
      }
      case Opcodes.ARRAYLENGTH -> {
        if (value.rowOf() != null) {
          yield SymValue.primitive(n(new Length(body.slot(value, Opcodes.ARRAYLENGTH).slot(), value.node())), null);
        }
        if (!value.isInvariant()) throw new Rejection("reads the length of an array that changes inside the loop");
        yield body.param(io.looplift.ir.Type.INT, concat(value.recipe(), insn));
      }
      case Opcodes.PUTSTATIC -> throw new Rejection("writes a field (heap write other than the output elements)");
      case Opcodes.NEWARRAY, Opcodes.ANEWARRAY -> throw new Rejection("allocates inside the loop");
      case Opcodes.ATHROW -> throw new Rejection("may throw an exception explicitly");
      case Opcodes.CHECKCAST, Opcodes.INSTANCEOF -> throw new Rejection("tests or casts object types");
      case Opcodes.MONITORENTER, Opcodes.MONITOREXIT -> throw new Rejection("enters a monitor (synchronized)");
      case Opcodes.TABLESWITCH, Opcodes.LOOKUPSWITCH -> throw new Rejection("contains a switch");
      default -> throw unsupported(insn);
    };
  }

  /**
   * Operations on two values: {@code iadd}...{@code dsub}, {@code imul}...{@code dmul}, {@code idiv}...
   * {@code drem}, the shifts and bitwise operations on ints and longs, {@code lcmp}, {@code fcmpl},
   * {@code fcmpg}, {@code dcmpl}, {@code dcmpg}, and {@code aaload} of an invariant row of an invariant
   * array of arrays (an invariant reference: the inner loop over a row).
   *
   * @throws Rejection for an integer division or remainder by anything but a nonzero constant, for
   *     {@code aaload} of an element that changes inside the loop or is not an array of primitives, and for
   *     {@code putfield}
   */
  @Override
  public SymValue binaryOperation(AbstractInsnNode insn, SymValue value1, SymValue value2) {
    int op = insn.getOpcode();
    return switch (op) {
      case Opcodes.IADD, Opcodes.LADD, Opcodes.FADD, Opcodes.DADD -> binary(BinaryOp.ADD, value1, value2, insn);
      case Opcodes.ISUB, Opcodes.LSUB, Opcodes.FSUB, Opcodes.DSUB -> binary(BinaryOp.SUB, value1, value2, insn);
      case Opcodes.IMUL, Opcodes.LMUL, Opcodes.FMUL, Opcodes.DMUL -> binary(BinaryOp.MUL, value1, value2, insn);
      case Opcodes.FDIV, Opcodes.DDIV -> binary(BinaryOp.DIV, value1, value2, insn);
      case Opcodes.FREM, Opcodes.DREM -> binary(BinaryOp.REM, value1, value2, insn);
      case Opcodes.IDIV, Opcodes.LDIV, Opcodes.IREM, Opcodes.LREM -> {
        // An integer division by zero throws: offloaded, it would not.
        if (!(value2.node() instanceof Const c) || c.bits() == 0) {
          throw new Rejection("divides by a value that may be zero");
        }
        yield binary(op == Opcodes.IDIV || op == Opcodes.LDIV ? BinaryOp.DIV : BinaryOp.REM, value1, value2, insn);
      }
      case Opcodes.ISHL, Opcodes.LSHL -> binary(BinaryOp.SHL, value1, value2, insn);
      case Opcodes.ISHR, Opcodes.LSHR -> binary(BinaryOp.SHR, value1, value2, insn);
      case Opcodes.IUSHR, Opcodes.LUSHR -> binary(BinaryOp.USHR, value1, value2, insn);
      case Opcodes.IAND, Opcodes.LAND -> binary(BinaryOp.AND, value1, value2, insn);
      case Opcodes.IOR, Opcodes.LOR -> binary(BinaryOp.OR, value1, value2, insn);
      case Opcodes.IXOR, Opcodes.LXOR -> binary(BinaryOp.XOR, value1, value2, insn);
      case Opcodes.LCMP, Opcodes.FCMPL, Opcodes.DCMPL -> binary(BinaryOp.CMPL, value1, value2, insn);
      case Opcodes.FCMPG, Opcodes.DCMPG -> binary(BinaryOp.CMPG, value1, value2, insn);
      case Opcodes.AALOAD -> row(value1, value2, insn);
      case Opcodes.PUTFIELD -> throw new Rejection("writes a field (heap write other than the output elements)");
      default -> throw unsupported(insn);
    };
  }

  /**
   * Operations on three values: only {@code aastore} reaches this (the primitive array stores are
   * {@link #store}).
   *
   * @throws Rejection for {@code aastore}
   */
  @Override
  public SymValue ternaryOperation(AbstractInsnNode insn, SymValue value1, SymValue value2, SymValue value3) {
    if (insn.getOpcode() == Opcodes.AASTORE) throw new Rejection("writes an object array");
    throw unsupported(insn);
  }

  /**
   * Calls other than {@code invokestatic}, {@code invokevirtual}, {@code invokespecial} and
   * {@code invokeinterface} (which {@link SymFrame} executes with {@link #invoke} and {@link #invokeInstance}).
   *
   * @throws Rejection for {@code invokedynamic} and {@code multianewarray}
   */
  @Override
  public SymValue naryOperation(AbstractInsnNode insn, List<? extends SymValue> values) {
    switch (insn.getOpcode()) {
      case Opcodes.INVOKEDYNAMIC -> throw new Rejection("calls " + describe(insn) + " (not known to be pure)");
      case Opcodes.MULTIANEWARRAY -> throw new Rejection("allocates inside the loop");
      default -> throw unsupported(insn);
    }
  }

  /**
   * A value an inlined helper returns with {@code ireturn}, {@code lreturn}, {@code freturn} or
   * {@code dreturn}: it must be a number. ({@link BlockWalker} leaves returns to its caller, and
   * the inliner calls this for each.)
   *
   * @throws Rejection for a reference
   */
  @Override
  public void returnOperation(AbstractInsnNode insn, SymValue value, SymValue expected) {
    node(value);
  }

  /**
   * ASM's merge, which knows nothing of paths: {@code value1} where both paths agree, else
   * {@link SymValue#UNKNOWN}. {@link #merge(List, List, boolean)} adds the path conditions.
   */
  @Override
  public SymValue merge(SymValue value1, SymValue value2) {
    return value1.equals(value2) ? value1 : SymValue.UNKNOWN;
  }

  // ---- joins and conditions ------------------------------------------------------------------------

  /**
   * The value of one local or stack slot where mutually exclusive paths join, path {@code k} arriving
   * with {@code values[k]} under {@code conds[k]}: the common value when all agree, else a select of
   * their primitive values.
   *
   * @param onStack whether the slot is on the operand stack, where a value is needed: for a local, values
   *     that cannot be selected between (references, different types) make the local {@link SymValue#UNKNOWN}
   *     (it is dead or retyped after the join)
   * @throws Rejection for stack values that cannot be selected between
   */
  SymValue merge(List<Node> conds, List<SymValue> values, boolean onStack) {
    SymValue same = values.get(0);
    for (SymValue v : values) same = merge(same, v);
    if (same != SymValue.UNKNOWN) return same;
    io.looplift.ir.Type type = values.get(0).isPrimitive() ? values.get(0).node().type() : null;
    List<Node> nodes = new ArrayList<>();
    for (SymValue v : values) {
      if (!v.isPrimitive() || v.node().type() != type) {
        if (onStack) throw new Rejection("chooses between different arrays or objects in a branch");
        return SymValue.UNKNOWN;
      }
      nodes.add(v.node());
    }
    return SymValue.primitive(select(conds, nodes), null);
  }

  /**
   * {@code values[0]} where {@code conds[0]} holds, else {@code values[1]} where {@code conds[1]} holds...,
   * else the last value: the value after a join of mutually exclusive paths.
   */
  Node select(List<Node> conds, List<Node> values) {
    Node merged = values.get(values.size() - 1);
    for (int k = values.size() - 2; k >= 0; k--) merged = n(Select.of(conds.get(k), values.get(k), merged));
    return merged;
  }

  /** {@code a || b}, folding the diamond shape {@code (c && p) || (c && !p)} back to {@code c}. */
  Node or(Node a, Node b) {
    if (a instanceof Binary x && b instanceof Binary y && x.op() == BinaryOp.AND && y.op() == BinaryOp.AND
        && x.x().equals(y.x()) && (Unary.of(UnaryOp.NOT, x.y()).equals(y.y()))) {
      return x.x();
    }
    if (Unary.of(UnaryOp.NOT, a).equals(b)) return Const.TRUE;
    return n(Binary.of(BinaryOp.OR, a, b));
  }

  Node and(Node a, Node b) { return n(Binary.of(BinaryOp.AND, a, b)); }

  Node not(Node a) { return n(Unary.of(UnaryOp.NOT, a)); }

  // ---- array elements (executed by SymFrame) -------------------------------------------------------

  /** The element {@code array[index]} that primitive array load or store {@code insn} accesses. */
  Element element(AbstractInsnNode insn, SymValue array, SymValue index) {
    Node i = node(index);
    ArraySlot a = body.slot(array, insn.getOpcode());
    if (i.type() != io.looplift.ir.Type.INT) throw new Rejection("uses a non-int index");
    return new Element(a.slot(), a.elementType(), i, a.rows() ? array.node() : null);
  }

  /**
   * A load of {@code e} from the array as it was when segment {@code epoch} began: no store of this path's
   * segment wrote it.
   */
  SymValue load(Element e, int epoch) {
    body.read(e);
    return SymValue.primitive(n(new Load(e.slot(), e.elementType(), e.index(), e.row(), epoch)), null);
  }

  /**
   * Executes primitive array store {@code insn} of {@code value} to {@code array[index]} on a path taken
   * where {@code cond} holds, in segment {@code epoch}, and returns the element written.
   *
   * @throws Rejection for a store the loop cannot offload ({@link LoopBody#write})
   */
  Element store(AbstractInsnNode insn, SymValue array, SymValue index, SymValue value, Node cond, int epoch) {
    Node v = node(value);
    Element e = element(insn, array, index);
    body.write(e, v, cond, epoch);
    return e;
  }

  /** The value a later load of {@code e} sees after a store of {@code value}: stores truncate sub-int types. */
  Node stored(Element e, SymValue value) {
    Node v = node(value);
    return switch (e.elementType()) {
      case BYTE, SHORT, CHAR -> n(Convert.of(v, e.elementType()));
      case BOOLEAN -> n(Binary.of(BinaryOp.AND, v, Const.ofInt(1)));
      default -> v;
    };
  }

  // ---- instructions --------------------------------------------------------------------------------

  private static SymValue constant(Const c, AbstractInsnNode insn) {
    return SymValue.primitive(c, List.of(insn));
  }

  private static SymValue ldc(LdcInsnNode insn) {
    Object c = insn.cst;
    if (c instanceof Integer x) return constant(Const.ofInt(x), insn);
    if (c instanceof Long x) return constant(Const.ofLong(x), insn);
    if (c instanceof Float x) return constant(Const.ofFloat(x), insn);
    if (c instanceof Double x) return constant(Const.ofDouble(x), insn);
    throw new Rejection("uses a constant of type " + c.getClass().getSimpleName());
  }

  private SymValue unary(UnaryOp op, SymValue x, AbstractInsnNode insn) {
    return SymValue.primitive(n(Unary.of(op, node(x))), x.recipe() == null ? null : concat(x.recipe(), insn));
  }

  private SymValue binary(BinaryOp op, SymValue x, SymValue y, AbstractInsnNode insn) {
    return SymValue.primitive(n(Binary.of(op, node(x), node(y))), concat(x.recipe(), y.recipe(), insn));
  }

  private SymValue convert(SymValue x, io.looplift.ir.Type to, AbstractInsnNode insn) {
    return SymValue.primitive(n(Convert.of(node(x), to)), x.recipe() == null ? null : concat(x.recipe(), insn));
  }

  /**
   * {@code m[r]} of an invariant array of arrays: with an invariant row index, an invariant row array (the
   * inner loop over one row); with an index that changes, a row of {@code m} ({@code double[] ci = c[i]}).
   */
  private SymValue row(SymValue array, SymValue index, AbstractInsnNode insn) {
    if (!array.isInvariant() || array.refType() == null || array.refType().getSort() != Type.ARRAY) {
      throw new Rejection("reads an element of an object array that changes inside the loop");
    }
    Type elem = Type.getType(array.refType().getDescriptor().substring(1));
    if (elem.getSort() != Type.ARRAY) throw new Rejection("reads an object array (" + array.refType().getClassName() + ")");
    if (index.isInvariant()) return SymValue.reference(elem, concat(array.recipe(), index.recipe(), insn));
    if (elem.getDimensions() != 1) throw new Rejection("reads an object array (" + array.refType().getClassName() + ")");
    return SymValue.row(elem, array, node(index));
  }

  /**
   * A read of the field {@code insn} names, of the object {@code objectRecipe} computes ({@code null} for a
   * static field), recomputed before the loop by a recipe that reads it: with {@code insn} itself where the
   * loop's class may, else (an instance field of a helper's class that is private to it, of an object the
   * recipe only knows as an {@code Object}, or of one it knows by an abstract type) through
   * {@link LoopBridge#field}.
   */
  private SymValue field(FieldInsnNode insn, List<AbstractInsnNode> objectRecipe) {
    boolean accessible = current == ctx.owner
        || ctx.hierarchy.fieldAccessibleFrom(insn.owner, insn.name, insn.desc, ctx.owner.name);
    boolean bridged = objectRecipe != null && (!accessible || readsThroughBridge(objectRecipe)
        || knownByAbstractType.contains(SymValue.key(objectRecipe)));
    if (!accessible && !bridged) {
      throw new Rejection("calls a helper of another class that reads its static field " + insn.name);
    }
    // A static field's first read initializes its class: before the loop, only once Java has done so.
    if (insn.getOpcode() == Opcodes.GETSTATIC && !insn.owner.equals(ctx.owner.name)) requireInitialized(insn.owner);
    Boolean vol = ctx.hierarchy.isVolatile(insn.owner, insn.name, insn.desc);
    if (vol == null) throw new Rejection("reads field " + insn.name + " of a class the analysis cannot see");
    if (vol) throw new Rejection("reads volatile field " + insn.name);
    List<AbstractInsnNode> recipe = objectRecipe == null ? List.of(insn)
        : bridged ? concat(objectRecipe, bridgedRead(insn)) : concat(objectRecipe, insn);
    Type t = Type.getType(insn.desc);
    if (t.getSort() == Type.ARRAY || t.getSort() == Type.OBJECT) return SymValue.reference(t, recipe);
    return body.param(io.looplift.ir.Type.ofDescriptor(insn.desc.charAt(0)), recipe);
  }

  private static boolean readsThroughBridge(List<AbstractInsnNode> recipe) {
    return recipe.get(recipe.size() - 1) instanceof MethodInsnNode m && m.name.equals(LoopBridge.FIELD)
        && m.owner.equals(LoopBridge.INTERNAL_NAME);
  }

  /**
   * Instructions that read field {@code insn} of the object on the stack through the bridge, leaving what
   * {@code getfield} would: the value, unboxed, or the array cast to its type; an object stays an
   * {@code Object}, whose own fields are read through the bridge too.
   */
  private static List<AbstractInsnNode> bridgedRead(FieldInsnNode insn) {
    List<AbstractInsnNode> r = new ArrayList<>();
    r.add(new LdcInsnNode(insn.owner));
    r.add(new LdcInsnNode(insn.name));
    r.add(new MethodInsnNode(Opcodes.INVOKESTATIC, LoopBridge.INTERNAL_NAME, LoopBridge.FIELD, LoopBridge.FIELD_DESC,
        false));
    Type t = Type.getType(insn.desc);
    switch (t.getSort()) {
      case Type.OBJECT -> { }
      case Type.ARRAY -> r.add(new TypeInsnNode(Opcodes.CHECKCAST, t.getDescriptor()));
      default -> {
        String box = switch (t.getSort()) {
          case Type.BOOLEAN -> "java/lang/Boolean";
          case Type.CHAR -> "java/lang/Character";
          case Type.BYTE -> "java/lang/Byte";
          case Type.SHORT -> "java/lang/Short";
          case Type.INT -> "java/lang/Integer";
          case Type.LONG -> "java/lang/Long";
          case Type.FLOAT -> "java/lang/Float";
          default -> "java/lang/Double";
        };
        r.add(new TypeInsnNode(Opcodes.CHECKCAST, box));
        r.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, box, t.getClassName() + "Value", "()" + t.getDescriptor(), false));
      }
    }
    return r;
  }

  private static List<AbstractInsnNode> concat(List<AbstractInsnNode> a, List<AbstractInsnNode> b) {
    List<AbstractInsnNode> r = new ArrayList<>(a);
    r.addAll(b);
    return r;
  }

  private static Rejection unsupported(AbstractInsnNode insn) {
    return new Rejection("uses an unsupported instruction (opcode " + insn.getOpcode() + ")");
  }

  private static List<AbstractInsnNode> concat(List<AbstractInsnNode> a, AbstractInsnNode insn) {
    List<AbstractInsnNode> r = new ArrayList<>(a);
    r.add(insn);
    return r;
  }

  private static List<AbstractInsnNode> concat(List<AbstractInsnNode> a, List<AbstractInsnNode> b, AbstractInsnNode insn) {
    if (a == null || b == null) return null;
    List<AbstractInsnNode> r = new ArrayList<>(a);
    r.addAll(b);
    r.add(insn);
    return r;
  }

  // ---- calls ---------------------------------------------------------------------------------------

  /**
   * Executes {@code invokestatic} of {@code mi} with {@code args} on the path of {@code frame}: a pure JDK
   * method ({@link MathCalls}) becomes IR; a small static helper is inlined, its loops and stores included,
   * continuing the caller's path (its loads see the caller's stores, and the caller sees its stores). The
   * helper may be of the class whose code calls it, or of another class outside the JDK whose class file
   * the loop's class loader can read (static methods are bound by name: no other class can replace it).
   * Returns the result, or null for a void helper.
   *
   * @throws Rejection for any other method, and for a helper that is too large, nested too deep, native,
   *     abstract or synchronized, or returns a reference
   */
  SymValue invoke(MethodInsnNode mi, List<SymValue> args, SymFrame frame) {
    Node intrinsic = MathCalls.translate(this, mi, args);
    if (intrinsic != null) return SymValue.primitive(intrinsic, pureCallRecipe(mi, args));
    Resolved r = resolve(mi, true);
    ClassNode holder = r.holder();
    MethodNode callee = r.method();
    // Java initializes a class at the first call of one of its static methods: offloaded, the call is never
    // made, so the loop is offloaded only once the class is initialized (the rewritten code asks the
    // bridge, naming the class with ldc, which needs it accessible from the loop's class).
    if (holder != ctx.owner) requireInitialized(holder.name);
    return inline(mi, holder, callee, args, frame);
  }

  /**
   * The recipe of a call to a pure JDK method whose arguments the loop does not change ({@code i <
   * Math.min(n, a.length)}): their recipes, then the call, which gives before the loop what every iteration
   * would; null when an argument changes.
   */
  private static List<AbstractInsnNode> pureCallRecipe(MethodInsnNode mi, List<SymValue> args) {
    List<AbstractInsnNode> recipe = new ArrayList<>();
    for (SymValue a : args) {
      if (!a.isInvariant()) return null;
      recipe.addAll(a.recipe());
    }
    recipe.add(mi);
    return recipe;
  }

  /**
   * Notes that class {@code c} (internal name), which the original loop may initialize, must be initialized
   * before the loop runs offloaded, when initializing it runs a static initializer outside the JDK.
   *
   * @throws Rejection when the loop's class cannot name {@code c}
   */
  private void requireInitialized(String c) {
    if (!ctx.hierarchy.hasStaticInitializer(c)) return;
    if ((ctx.owner.version & 0xFFFF) < Opcodes.V1_5) {
      // The check before the loop names the class with ldc, which class files before Java 5 cannot hold.
      throw new Rejection("uses " + c.replace('/', '.') + ", a class with a static initializer, from a class file"
          + " older than Java 5");
    }
    if (!ctx.hierarchy.classAccessibleFrom(c, ctx.owner.name)) {
      throw new Rejection("uses " + c.replace('/', '.') + ", a class with a static initializer that "
          + ctx.owner.name.replace('/', '.') + " cannot name");
    }
    body.initializedClasses.add(c);
  }

  /**
   * Executes {@code invokevirtual}, {@code invokespecial} or {@code invokeinterface} of {@code mi} on
   * {@code receiver} with {@code args}, inlining the method like a static helper when the method that runs is
   * known:
   * <ul>
   *   <li>on {@code this} in a method of the loop's class (never null): a private or final method of that
   *       class, or of a final class, and a superclass's method called with {@code invokespecial};
   *   <li>on any other object that does not change inside the loop: the method the call resolves to in its
   *       static type (outside the libraries of {@link Libraries#NO_INSTANCE_INLINING}) or, when that is
   *       abstract (of a class or an interface), the method of a loaded class implementing it, under a guard
   *       the rewritten code checks before the loop: that the object's class is that declaration's or a
   *       subclass that does not override it (which also checks the object is not null); otherwise the
   *       original loop runs.
   * </ul>
   *
   * @throws Rejection for any other call
   */
  SymValue invokeInstance(MethodInsnNode mi, SymValue receiver, List<SymValue> args, SymFrame frame) {
    if (mi.name.startsWith("<")) throw new Rejection("calls " + describe(mi) + " (not known to be pure)");
    if (!Libraries.inlinesInstanceMethodsOf(mi.owner)) {
      throw new Rejection("calls " + describe(mi) + " on an object of a library class (not inlined)");
    }
    List<AbstractInsnNode> recipe = receiver.recipe();
    if (recipe == null) throw new Rejection("calls " + describe(mi) + " on an object that changes inside the loop");
    boolean onThis = recipe.size() == 1 && recipe.get(0) instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD
        && v.var == 0 && ctx.localZeroIsThis();
    Resolved r = resolve(mi, false);
    boolean bound = onThis && (mi.getOpcode() == Opcodes.INVOKESPECIAL || mi.owner.equals(ctx.owner.name)
        && ((r.method().access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0 || (ctx.owner.access & Opcodes.ACC_FINAL) != 0));
    if (!bound) {
      Resolved target = guardTarget(mi, r, recipe);
      if (target.holder() != r.holder()) knownByAbstractType.add(SymValue.key(recipe));
      r = target;
    }
    List<SymValue> all = new ArrayList<>(args.size() + 1);
    all.add(receiver);
    all.addAll(args);
    return inline(mi, r.holder(), r.method(), all, frame);
  }

  /** A method found for a call, and the class that declares it. */
  private record Resolved(ClassNode holder, MethodNode method) {}

  /**
   * The static ({@code isStatic}) or instance method {@code mi} calls, searched as the JVM resolves it: in its
   * class, then up the superclasses, whose class files must be readable (and outside the JDK).
   *
   * @throws Rejection when it is not found
   */
  private Resolved resolve(MethodInsnNode mi, boolean isStatic) {
    Resolved r = declaration(mi.owner, null, mi, isStatic);
    if (r == null) throw new Rejection("calls " + describe(mi) + " (not known to be pure)");
    return r;
  }

  /**
   * The first declaration of {@code mi}'s method on the superclass chain from class {@code from}, up to but not
   * including {@code stop} (null: to the top); null when there is none or a class on the way cannot be read.
   */
  private Resolved declaration(String from, String stop, MethodInsnNode mi, boolean isStatic) {
    ClassNode holder;
    for (String c = from; c != null && !c.equals(stop); c = holder.superName) {
      holder = c.equals(current.name) ? current : c.equals(ctx.owner.name) ? ctx.owner : ctx.hierarchy.findWithCode(c);
      if (holder == null) return null;
      MethodNode m = MethodContext.findMethod(holder, mi.name, mi.desc, isStatic);
      if (m != null) return new Resolved(holder, m);
    }
    return null;
  }

  /**
   * The method calling {@code mi} on the object {@code recipe} computes must run for the loop to run offloaded,
   * and a note of the guard that checks it: {@code resolved}, which the object's class must not override, or,
   * when that is abstract, the method of a loaded class that implements it (see {@link Implementations}),
   * which the object's class must be or inherit without overriding.
   *
   * @throws Rejection for an abstract method no loaded class is known to implement
   */
  private Resolved guardTarget(MethodInsnNode mi, Resolved resolved, List<AbstractInsnNode> recipe) {
    String method = mi.name + mi.desc;
    Resolved target = resolved;
    boolean ofInterface = (resolved.holder().access & Opcodes.ACC_INTERFACE) != 0;
    if (ofInterface && (resolved.method().access & Opcodes.ACC_ABSTRACT) == 0) {
      throw new Rejection("calls " + describe(mi) + ", a default method of an interface (not inlined)");
    }
    if ((resolved.method().access & Opcodes.ACC_ABSTRACT) != 0) {
      String implementation = ctx.hierarchy.implementation(resolved.holder().name, method);
      if (implementation == null) {
        throw new Rejection("calls " + describe(mi) + ", an abstract method" + LoopSite.AWAITS_IMPLEMENTATION);
      }
      target = implementedIn(implementation, resolved.holder().name, mi);
      if (target == null) {
        throw new Rejection("calls " + describe(mi) + ", an abstract method whose implementation in "
            + implementation.replace('/', '.') + " cannot be read");
      }
    }
    body.receiverGuards.putIfAbsent(SymValue.key(recipe) + target.holder().name + method,
        new LoopBody.VirtualTarget(recipe, target.holder().name, method));
    return target;
  }

  /**
   * The declaration of {@code mi}'s method that an object of class {@code implementation}, a subtype of
   * {@code owner}, runs: its own or an inherited one below {@code owner}; null when it cannot be read or is
   * abstract there too.
   */
  private Resolved implementedIn(String implementation, String owner, MethodInsnNode mi) {
    if (!ctx.hierarchy.isSubtype(implementation, owner)) return null;
    Resolved r = declaration(implementation, owner, mi, false);
    return r == null || (r.method().access & Opcodes.ACC_ABSTRACT) != 0 ? null : r;
  }

  private SymValue inline(MethodInsnNode mi, ClassNode holder, MethodNode callee, List<SymValue> args, SymFrame frame) {
    if ((callee.access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_SYNCHRONIZED)) != 0
        || callee.instructions.size() > MAX_INLINE_SIZE || depth >= MAX_INLINE_DEPTH) {
      throw new Rejection("calls " + describe(mi) + " (too large or not inlinable)");
    }
    Type ret = Type.getReturnType(mi.desc);
    if (ret.getSort() == Type.OBJECT || ret.getSort() == Type.ARRAY) {
      throw new Rejection("calls " + describe(mi) + " (only helpers that return a number or nothing are inlined)");
    }
    MethodContext helper = ctx.forMethod(holder, callee);
    ClassNode caller = current;
    current = holder;
    depth++;
    try {
      return inline(helper, args, frame, ret.getSort() != Type.VOID);
    } finally {
      depth--;
      current = caller;
    }
  }

  /**
   * Executes a helper on symbolic arguments, continuing {@code caller}'s path; its returns merge into one
   * path, which {@code caller} continues from, and one value (null without {@code returnsValue}).
   */
  private SymValue inline(MethodContext m, List<SymValue> args, SymFrame caller, boolean returnsValue) {
    // Its exception handlers are left out (the walk follows normal control flow only): in a launch, which its
    // guards allow only when every array is there and every index in range, nothing the helper does throws.
    SymFrame entry = new SymFrame(m.method.maxLocals, m.method.maxStack);
    entry.continueFrom(caller);
    int var = 0;
    for (SymValue a : args) {
      entry.setLocal(var, a);
      var += a.getSize();
    }
    List<Node> conds = new ArrayList<>();
    List<Node> values = new ArrayList<>();
    List<SymFrame> exits = new ArrayList<>();
    new BlockWalker(m, this).walk(m.cfg.blocks.get(0), entry, b -> true, null, (insn, exit) -> {
      if (returnsValue) {
        SymValue v = exit.pop();
        returnOperation(insn, v, null);
        values.add(v.node());
      }
      conds.add(exit.condition());
      exits.add(exit);
    });
    if (exits.isEmpty()) throw new Rejection("calls a helper that never returns");
    caller.continueFrom(SymFrame.join(exits, this));
    if (!returnsValue) return null;
    Node result = select(conds, values);
    // A helper that returns a value the loop does not change, read from a field (a getter, a synthetic
    // access$ method): the value keeps that read's recipe, so that it may be a loop's limit.
    return SymValue.primitive(result, result instanceof Param p ? body.paramRecipes.get(p) : null);
  }

  /** A call to a JDK method that is pure on primitives, kept as a {@link Call}. */
  Node call(MethodInsnNode mi, List<? extends SymValue> args) {
    List<Node> nodes = new ArrayList<>();
    for (SymValue a : args) nodes.add(node(a));
    return n(new Call(mi.owner, mi.name, mi.desc, nodes));
  }

  private static String describe(AbstractInsnNode insn) {
    if (insn instanceof MethodInsnNode mi) return mi.owner.replace('/', '.') + "." + mi.name;
    return "a dynamically bound method";
  }
}
