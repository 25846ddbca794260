package io.looplift.analyzer;

import io.looplift.ir.Acc;
import io.looplift.ir.AffineIndex;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Load;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Symbolic execution of bytecode into IR. One instance per loop: it owns the loop's array slots,
 * parameters, stores and accesses, and executes the loop's blocks (and any inlined helper) in
 * topological order, turning branches into path conditions and joins into selects.
 */
final class BodyEvaluator {
  private static final int MAX_INLINE_DEPTH = 4;
  private static final int MAX_INLINE_SIZE = 300;

  /** The state flowing along one control-flow path. */
  static final class State {
    SymValue[] locals;
    ArrayList<SymValue> stack = new ArrayList<>();
    /** Array elements written so far in this iteration on this path: (slot, index) → value. */
    LinkedHashMap<MemKey, Node> memory = new LinkedHashMap<>();
    Node cond = Const.TRUE;

    State(int maxLocals) { locals = new SymValue[maxLocals]; }

    State copy() {
      State s = new State(0);
      s.locals = locals.clone();
      s.stack = new ArrayList<>(stack);
      s.memory = new LinkedHashMap<>(memory);
      s.cond = cond;
      return s;
    }

    SymValue pop() { return stack.remove(stack.size() - 1); }

    void push(SymValue v) { stack.add(v); }
  }

  record MemKey(int slot, Node index) {}

  /** An array the loop reads or writes, identified by the recipe that loads its reference. */
  record ArraySlot(int slot, io.looplift.ir.Type elementType, List<AbstractInsnNode> recipe) {}

  /** A load or store, for the carried-dependency check. */
  record Access(int slot, AffineIndex index, boolean write) {}

  private final MethodContext ctx;
  private final Nodes.Table table = new Nodes.Table();
  final Map<String, ArraySlot> arrays = new LinkedHashMap<>();
  final Map<String, Param> params = new LinkedHashMap<>();
  final Map<Param, List<AbstractInsnNode>> paramRecipes = new HashMap<>();
  final List<Store> stores = new ArrayList<>();
  final List<Access> accesses = new ArrayList<>();
  /** Set when some load follows a store in program order (the loop then tolerates no array aliasing). */
  boolean loadAfterStore;

  BodyEvaluator(MethodContext ctx) {
    this.ctx = ctx;
  }

  Node n(Node node) { return table.intern(node); }

  // ---- values ------------------------------------------------------------------------------------

  /** The IR node of a primitive value, creating a parameter for an invariant leaf on first use. */
  Node node(SymValue v) {
    if (v.isReference()) throw new Rejection("uses an object reference as a number");
    return v.node();
  }

  /** A parameter (loop-invariant scalar) for the value {@code recipe} computes. */
  SymValue param(io.looplift.ir.Type type, List<AbstractInsnNode> recipe) {
    String key = type + ":" + SymValue.key(recipe);
    Param p = params.get(key);
    if (p == null) {
      p = new Param(params.size(), type.stackType());
      params.put(key, p);
      paramRecipes.put(p, List.copyOf(recipe));
    }
    return SymValue.primitive(p, recipe);
  }

  private ArraySlot slot(SymValue array, int opcode) {
    if (!array.isReference() || array.refType() == null || array.refType().getSort() != Type.ARRAY) {
      throw new Rejection("accesses an array whose type is not known");
    }
    if (!array.isInvariant()) throw new Rejection("the array it accesses changes inside the loop");
    Type t = array.refType();
    if (t.getDimensions() != 1) throw new Rejection("reads an object array (" + t.getClassName() + ")");
    io.looplift.ir.Type elem = io.looplift.ir.Type.ofDescriptor(t.getElementType().getDescriptor().charAt(0));
    String key = array.key();
    ArraySlot s = arrays.get(key);
    if (s == null) {
      s = new ArraySlot(arrays.size(), elem, array.recipe());
      arrays.put(key, s);
    }
    if (opcode == Opcodes.BALOAD || opcode == Opcodes.BASTORE) {
      if (elem != io.looplift.ir.Type.BYTE && elem != io.looplift.ir.Type.BOOLEAN) throw new Rejection("inconsistent array type");
    }
    return s;
  }

  private AffineIndex affine(Node index, String what) {
    AffineIndex ai = AffineIndex.of(index);
    if (ai == null) throw new Rejection(what + " at an index that is not i + constant (indirect or non-linear access)");
    return ai;
  }

  // ---- regions -----------------------------------------------------------------------------------

  /** Merges the states arriving at a join; the arriving paths are mutually exclusive. */
  State merge(List<State> in) {
    if (in.size() == 1) return in.get(0);
    State first = in.get(0);
    State out = new State(first.locals.length);
    Node cond = first.cond;
    for (int k = 1; k < in.size(); k++) cond = or(cond, in.get(k).cond);
    out.cond = cond;
    for (int j = 0; j < first.locals.length; j++) {
      List<SymValue> vs = new ArrayList<>();
      for (State s : in) vs.add(s.locals[j]);
      out.locals[j] = mergeValues(in, vs, false);
    }
    int depth = first.stack.size();
    for (State s : in) {
      if (s.stack.size() != depth) throw new Rejection("unbalanced operand stack at a join");
    }
    for (int d = 0; d < depth; d++) {
      List<SymValue> vs = new ArrayList<>();
      for (State s : in) vs.add(s.stack.get(d));
      out.stack.add(mergeValues(in, vs, true));
    }
    LinkedHashMap<MemKey, Node> keys = new LinkedHashMap<>();
    for (State s : in) s.memory.forEach(keys::putIfAbsent);
    for (MemKey key : keys.keySet()) {
      Node merged = null;
      for (int k = in.size() - 1; k >= 0; k--) {
        Node v = in.get(k).memory.get(key);
        if (v == null) v = n(new Load(key.slot(), slotType(key.slot()), key.index()));
        merged = merged == null ? v : n(Select.of(in.get(k).cond, v, merged));
      }
      out.memory.put(key, merged);
    }
    return out;
  }

  private io.looplift.ir.Type slotType(int slot) {
    for (ArraySlot s : arrays.values()) {
      if (s.slot() == slot) return s.elementType();
    }
    throw new IllegalStateException("slot " + slot);
  }

  private SymValue mergeValues(List<State> in, List<SymValue> vs, boolean required) {
    SymValue first = vs.get(0);
    boolean same = true;
    for (SymValue v : vs) same &= java.util.Objects.equals(v, first);
    if (same) return first;
    for (SymValue v : vs) {
      if (v == null || v.isReference() || v.node().type() != first.node().type()) {
        if (required) throw new Rejection("chooses between different arrays or objects in a branch");
        return null; // a local that is dead or retyped after the join
      }
    }
    Node merged = vs.get(vs.size() - 1).node();
    for (int k = vs.size() - 2; k >= 0; k--) merged = n(Select.of(in.get(k).cond, vs.get(k).node(), merged));
    return SymValue.primitive(merged, null);
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

  // ---- instructions ------------------------------------------------------------------------------

  /**
   * Executes the non-branching instructions of one block on {@code s}. Returns the block's terminating
   * instruction (a jump or return) or null when it falls through.
   */
  AbstractInsnNode execute(MethodContext m, int start, int end, State s, boolean inlined, int depth) {
    for (int k = start; k < end; k++) {
      AbstractInsnNode in = m.insns[k];
      int op = in.getOpcode();
      if (op < 0) continue; // labels, line numbers, frames
      if (in instanceof JumpInsnNode || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
        if (k != end - 1) throw new IllegalStateException("jump inside a block");
        return in;
      }
      step(m, in, s, inlined, depth);
    }
    return null;
  }

  private void step(MethodContext m, AbstractInsnNode in, State s, boolean inlined, int depth) {
    int op = in.getOpcode();
    switch (op) {
      case Opcodes.NOP -> { }
      case Opcodes.ICONST_M1, Opcodes.ICONST_0, Opcodes.ICONST_1, Opcodes.ICONST_2, Opcodes.ICONST_3,
          Opcodes.ICONST_4, Opcodes.ICONST_5 -> constant(s, Const.ofInt(op - Opcodes.ICONST_0), in);
      case Opcodes.LCONST_0, Opcodes.LCONST_1 -> constant(s, Const.ofLong(op - Opcodes.LCONST_0), in);
      case Opcodes.FCONST_0, Opcodes.FCONST_1, Opcodes.FCONST_2 -> constant(s, Const.ofFloat(op - Opcodes.FCONST_0), in);
      case Opcodes.DCONST_0, Opcodes.DCONST_1 -> constant(s, Const.ofDouble(op - Opcodes.DCONST_0), in);
      case Opcodes.BIPUSH, Opcodes.SIPUSH -> constant(s, Const.ofInt(((IntInsnNode) in).operand), in);
      case Opcodes.LDC -> ldc(s, (LdcInsnNode) in);
      case Opcodes.ACONST_NULL -> throw new Rejection("uses null inside the loop");
      case Opcodes.ILOAD, Opcodes.LLOAD, Opcodes.FLOAD, Opcodes.DLOAD, Opcodes.ALOAD -> {
        SymValue v = s.locals[((VarInsnNode) in).var];
        if (v == null) throw new Rejection("reads a local the analysis cannot follow");
        s.push(v);
      }
      case Opcodes.ISTORE, Opcodes.LSTORE, Opcodes.FSTORE, Opcodes.DSTORE, Opcodes.ASTORE -> {
        SymValue v = s.pop();
        int var = ((VarInsnNode) in).var;
        s.locals[var] = v;
        if (v.isWide()) s.locals[var + 1] = null;
      }
      case Opcodes.IINC -> {
        IincInsnNode ii = (IincInsnNode) in;
        Node x = node(s.locals[ii.var]);
        s.locals[ii.var] = SymValue.primitive(n(Binary.of(BinaryOp.ADD, x, Const.ofInt(ii.incr))), null);
      }
      case Opcodes.IALOAD, Opcodes.LALOAD, Opcodes.FALOAD, Opcodes.DALOAD, Opcodes.BALOAD, Opcodes.CALOAD,
          Opcodes.SALOAD -> arrayLoad(s, op);
      case Opcodes.AALOAD -> rowLoad(s, in);
      case Opcodes.IASTORE, Opcodes.LASTORE, Opcodes.FASTORE, Opcodes.DASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
          Opcodes.SASTORE -> {
        if (inlined) throw new Rejection("calls a helper that writes an array");
        arrayStore(s, op);
      }
      case Opcodes.AASTORE -> throw new Rejection("writes an object array");
      case Opcodes.POP -> s.pop();
      case Opcodes.POP2 -> {
        if (!s.pop().isWide()) s.pop();
      }
      case Opcodes.DUP -> s.push(s.stack.get(s.stack.size() - 1));
      case Opcodes.DUP_X1 -> {
        SymValue a = s.pop();
        SymValue b = s.pop();
        s.push(a);
        s.push(b);
        s.push(a);
      }
      case Opcodes.DUP_X2 -> {
        SymValue a = s.pop();
        SymValue b = s.pop();
        if (b.isWide()) {
          s.push(a);
          s.push(b);
          s.push(a);
        } else {
          SymValue c = s.pop();
          s.push(a);
          s.push(c);
          s.push(b);
          s.push(a);
        }
      }
      case Opcodes.DUP2 -> {
        SymValue a = s.stack.get(s.stack.size() - 1);
        if (a.isWide()) {
          s.push(a);
        } else {
          SymValue b = s.stack.get(s.stack.size() - 2);
          s.push(b);
          s.push(a);
        }
      }
      case Opcodes.DUP2_X1 -> {
        SymValue a = s.pop();
        if (a.isWide()) {
          SymValue b = s.pop();
          s.push(a);
          s.push(b);
          s.push(a);
        } else {
          SymValue b = s.pop();
          SymValue c = s.pop();
          s.push(b);
          s.push(a);
          s.push(c);
          s.push(b);
          s.push(a);
        }
      }
      case Opcodes.DUP2_X2 -> throw new Rejection("uses an unusual stack operation (dup2_x2)");
      case Opcodes.SWAP -> {
        SymValue a = s.pop();
        SymValue b = s.pop();
        s.push(a);
        s.push(b);
      }
      case Opcodes.IADD, Opcodes.LADD, Opcodes.FADD, Opcodes.DADD -> binary(s, BinaryOp.ADD, in);
      case Opcodes.ISUB, Opcodes.LSUB, Opcodes.FSUB, Opcodes.DSUB -> binary(s, BinaryOp.SUB, in);
      case Opcodes.IMUL, Opcodes.LMUL, Opcodes.FMUL, Opcodes.DMUL -> binary(s, BinaryOp.MUL, in);
      case Opcodes.FDIV, Opcodes.DDIV -> binary(s, BinaryOp.DIV, in);
      case Opcodes.FREM, Opcodes.DREM -> binary(s, BinaryOp.REM, in);
      case Opcodes.IDIV, Opcodes.LDIV, Opcodes.IREM, Opcodes.LREM -> {
        SymValue divisor = s.stack.get(s.stack.size() - 1);
        if (!(divisor.node() instanceof Const c) || c.bits() == 0) {
          throw new Rejection("divides by a value that may be zero");
        }
        binary(s, op == Opcodes.IDIV || op == Opcodes.LDIV ? BinaryOp.DIV : BinaryOp.REM, in);
      }
      case Opcodes.INEG, Opcodes.LNEG, Opcodes.FNEG, Opcodes.DNEG -> unary(s, UnaryOp.NEG, in);
      case Opcodes.ISHL, Opcodes.LSHL -> binary(s, BinaryOp.SHL, in);
      case Opcodes.ISHR, Opcodes.LSHR -> binary(s, BinaryOp.SHR, in);
      case Opcodes.IUSHR, Opcodes.LUSHR -> binary(s, BinaryOp.USHR, in);
      case Opcodes.IAND, Opcodes.LAND -> binary(s, BinaryOp.AND, in);
      case Opcodes.IOR, Opcodes.LOR -> binary(s, BinaryOp.OR, in);
      case Opcodes.IXOR, Opcodes.LXOR -> binary(s, BinaryOp.XOR, in);
      case Opcodes.I2L, Opcodes.F2L, Opcodes.D2L -> convert(s, io.looplift.ir.Type.LONG, in);
      case Opcodes.I2F, Opcodes.L2F, Opcodes.D2F -> convert(s, io.looplift.ir.Type.FLOAT, in);
      case Opcodes.I2D, Opcodes.L2D, Opcodes.F2D -> convert(s, io.looplift.ir.Type.DOUBLE, in);
      case Opcodes.L2I, Opcodes.F2I, Opcodes.D2I -> convert(s, io.looplift.ir.Type.INT, in);
      case Opcodes.I2B -> convert(s, io.looplift.ir.Type.BYTE, in);
      case Opcodes.I2C -> convert(s, io.looplift.ir.Type.CHAR, in);
      case Opcodes.I2S -> convert(s, io.looplift.ir.Type.SHORT, in);
      case Opcodes.LCMP, Opcodes.FCMPL, Opcodes.DCMPL -> binary(s, BinaryOp.CMPL, in);
      case Opcodes.FCMPG, Opcodes.DCMPG -> binary(s, BinaryOp.CMPG, in);
      case Opcodes.ARRAYLENGTH -> {
        SymValue a = s.pop();
        if (!a.isInvariant()) throw new Rejection("reads the length of an array that changes inside the loop");
        s.push(param(io.looplift.ir.Type.INT, concat(a.recipe(), in)));
      }
      case Opcodes.GETSTATIC, Opcodes.GETFIELD -> field(s, (FieldInsnNode) in);
      case Opcodes.PUTSTATIC, Opcodes.PUTFIELD -> throw new Rejection("writes a field (heap write other than the output elements)");
      case Opcodes.INVOKESTATIC -> invokeStatic(m, s, (MethodInsnNode) in, depth);
      case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKESPECIAL, Opcodes.INVOKEINTERFACE, Opcodes.INVOKEDYNAMIC ->
          throw new Rejection("calls " + describe(in) + " (not known to be pure)");
      case Opcodes.NEW, Opcodes.NEWARRAY, Opcodes.ANEWARRAY, Opcodes.MULTIANEWARRAY ->
          throw new Rejection("allocates inside the loop");
      case Opcodes.MONITORENTER, Opcodes.MONITOREXIT -> throw new Rejection("enters a monitor (synchronized)");
      case Opcodes.ATHROW -> throw new Rejection("may throw an exception explicitly");
      case Opcodes.CHECKCAST, Opcodes.INSTANCEOF -> throw new Rejection("tests or casts object types");
      case Opcodes.TABLESWITCH, Opcodes.LOOKUPSWITCH -> throw new Rejection("contains a switch");
      case Opcodes.JSR, Opcodes.RET -> throw new Rejection("uses subroutines (jsr/ret)");
      default -> throw new Rejection("uses an unsupported instruction (opcode " + op + ")");
    }
  }

  private static String describe(AbstractInsnNode in) {
    if (in instanceof MethodInsnNode mi) return mi.owner.replace('/', '.') + "." + mi.name;
    return "a dynamically bound method";
  }

  static List<AbstractInsnNode> concat(List<AbstractInsnNode> a, AbstractInsnNode in) {
    List<AbstractInsnNode> r = new ArrayList<>(a);
    r.add(in);
    return r;
  }

  private static List<AbstractInsnNode> concat(List<AbstractInsnNode> a, List<AbstractInsnNode> b, AbstractInsnNode in) {
    if (a == null || b == null) return null;
    List<AbstractInsnNode> r = new ArrayList<>(a);
    r.addAll(b);
    r.add(in);
    return r;
  }

  private void constant(State s, Const c, AbstractInsnNode in) {
    s.push(SymValue.primitive(c, List.of(in)));
  }

  private void ldc(State s, LdcInsnNode in) {
    Object c = in.cst;
    if (c instanceof Integer x) constant(s, Const.ofInt(x), in);
    else if (c instanceof Long x) constant(s, Const.ofLong(x), in);
    else if (c instanceof Float x) constant(s, Const.ofFloat(x), in);
    else if (c instanceof Double x) constant(s, Const.ofDouble(x), in);
    else throw new Rejection("uses a constant of type " + c.getClass().getSimpleName());
  }

  private void binary(State s, BinaryOp op, AbstractInsnNode in) {
    SymValue y = s.pop();
    SymValue x = s.pop();
    s.push(SymValue.primitive(n(Binary.of(op, node(x), node(y))), concat(x.recipe(), y.recipe(), in)));
  }

  private void unary(State s, UnaryOp op, AbstractInsnNode in) {
    SymValue x = s.pop();
    s.push(SymValue.primitive(n(Unary.of(op, node(x))), x.recipe() == null ? null : concat(x.recipe(), in)));
  }

  private void convert(State s, io.looplift.ir.Type to, AbstractInsnNode in) {
    SymValue x = s.pop();
    s.push(SymValue.primitive(n(Convert.of(node(x), to)), x.recipe() == null ? null : concat(x.recipe(), in)));
  }

  private void arrayLoad(State s, int op) {
    Node index = node(s.pop());
    ArraySlot a = slot(s.pop(), op);
    if (index.type() != io.looplift.ir.Type.INT) throw new Rejection("uses a non-int index");
    MemKey key = new MemKey(a.slot(), index);
    Node written = s.memory.get(key);
    if (written != null) {
      s.push(SymValue.primitive(written, null));
      return;
    }
    accesses.add(new Access(a.slot(), affine(index, "reads an array"), false));
    if (!stores.isEmpty()) loadAfterStore = true;
    s.push(SymValue.primitive(n(new Load(a.slot(), a.elementType(), index)), null));
  }

  private void arrayStore(State s, int op) {
    Node value = node(s.pop());
    Node index = node(s.pop());
    ArraySlot a = slot(s.pop(), op);
    AffineIndex ai = affine(index, "writes an array");
    if (ai.scale() == 0) throw new Rejection("writes the same array element in every iteration");
    accesses.add(new Access(a.slot(), ai, true));
    stores.add(new Store(a.slot(), a.elementType(), index, value, s.cond));
    s.memory.put(new MemKey(a.slot(), index), narrowed(value, a.elementType()));
  }

  /** The value a later load of a just-stored element sees: the store truncates sub-int types. */
  private Node narrowed(Node value, io.looplift.ir.Type elem) {
    return switch (elem) {
      case BYTE, SHORT, CHAR -> n(Convert.of(value, elem));
      case BOOLEAN -> n(Binary.of(BinaryOp.AND, value, Const.ofInt(1)));
      default -> value;
    };
  }

  /** {@code m[r]} with an invariant row index yields an invariant row array (the inner loop over rows). */
  private void rowLoad(State s, AbstractInsnNode in) {
    SymValue index = s.pop();
    SymValue array = s.pop();
    if (!array.isInvariant() || !index.isInvariant() || array.refType() == null || array.refType().getSort() != Type.ARRAY) {
      throw new Rejection("reads an object array element that changes inside the loop");
    }
    Type elem = Type.getType(array.refType().getDescriptor().substring(1));
    if (elem.getSort() != Type.ARRAY) throw new Rejection("reads an object array (" + array.refType().getClassName() + ")");
    s.push(SymValue.reference(elem, concat(array.recipe(), index.recipe(), in)));
  }

  private void field(State s, FieldInsnNode in) {
    List<AbstractInsnNode> recipe;
    if (in.getOpcode() == Opcodes.GETFIELD) {
      SymValue receiver = s.pop();
      if (!receiver.isInvariant()) throw new Rejection("reads a field of an object that changes inside the loop");
      recipe = concat(receiver.recipe(), in);
    } else {
      recipe = List.of(in);
    }
    Boolean vol = ctx.hierarchy.isVolatile(in.owner, in.name, in.desc);
    if (vol == null) throw new Rejection("reads field " + in.name + " of a class the analysis cannot see");
    if (vol) throw new Rejection("reads volatile field " + in.name);
    Type t = Type.getType(in.desc);
    if (t.getSort() == Type.ARRAY || t.getSort() == Type.OBJECT) {
      s.push(SymValue.reference(t, recipe));
    } else {
      s.push(param(io.looplift.ir.Type.ofDescriptor(in.desc.charAt(0)), recipe));
    }
  }

  // ---- calls -------------------------------------------------------------------------------------

  private void invokeStatic(MethodContext m, State s, MethodInsnNode mi, int depth) {
    Type[] argTypes = Type.getArgumentTypes(mi.desc);
    SymValue[] args = new SymValue[argTypes.length];
    for (int k = args.length - 1; k >= 0; k--) args[k] = s.pop();
    Node intrinsic = MathCalls.translate(this, mi, args);
    if (intrinsic != null) {
      s.push(SymValue.primitive(intrinsic, null));
      return;
    }
    if (!mi.owner.equals(ctx.owner.name)) throw new Rejection("calls " + describe(mi) + " (not known to be pure)");
    MethodNode callee = ctx.findMethod(mi.name, mi.desc);
    if (callee == null || (callee.access & (Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_SYNCHRONIZED)) != 0
        || callee.instructions.size() > MAX_INLINE_SIZE || depth >= MAX_INLINE_DEPTH) {
      throw new Rejection("calls " + describe(mi) + " (too large or not inlinable)");
    }
    Type ret = Type.getReturnType(mi.desc);
    if (ret.getSort() == Type.VOID || ret.getSort() == Type.OBJECT || ret.getSort() == Type.ARRAY) {
      throw new Rejection("calls " + describe(mi) + " (only pure helpers that return a number are inlined)");
    }
    s.push(SymValue.primitive(inline(ctx.forMethod(callee), args, depth + 1), null));
  }

  /** Executes a loop-free helper on symbolic arguments; its returns merge into one value. */
  private Node inline(MethodContext m, SymValue[] args, int depth) {
    if (!m.tryCatchBlocksEmpty()) throw new Rejection("calls a helper with exception handlers");
    State entry = new State(Math.max(m.method.maxLocals, 1));
    int var = 0;
    for (SymValue a : args) {
      entry.locals[var] = a;
      var += a.isWide() ? 2 : 1;
    }
    Cfg cfg = m.cfg;
    List<Cfg.Block> order = Regions.topologicalOrder(cfg, cfg.blocks.get(0), b -> true, null);
    Map<Cfg.Block, List<State>> incoming = new HashMap<>();
    List<State> returns = new ArrayList<>();
    List<Node> values = new ArrayList<>();
    for (Cfg.Block b : order) {
      State st = b.id == 0 ? entry : merge(incoming.get(b));
      AbstractInsnNode last = execute(m, b.start, b.end, st, true, depth);
      if (last != null && last.getOpcode() >= Opcodes.IRETURN && last.getOpcode() <= Opcodes.RETURN) {
        returns.add(st);
        values.add(node(st.pop()));
        continue;
      }
      for (Map.Entry<Cfg.Block, State> e : successors(m, cfg, b, last, st).entrySet()) {
        incoming.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
      }
    }
    Node result = values.get(values.size() - 1);
    for (int k = values.size() - 2; k >= 0; k--) result = n(Select.of(returns.get(k).cond, values.get(k), result));
    return result;
  }

  /** The states leaving block {@code b} along each successor edge, with their path conditions. */
  Map<Cfg.Block, State> successors(MethodContext m, Cfg cfg, Cfg.Block b, AbstractInsnNode last, State st) {
    Map<Cfg.Block, State> out = new LinkedHashMap<>();
    if (last == null) {
      out.put(cfg.blockOf(b.end), st);
      return out;
    }
    JumpInsnNode j = (JumpInsnNode) last;
    Cfg.Block target = cfg.blockOf(m.method.instructions.indexOf(j.label));
    if (j.getOpcode() == Opcodes.GOTO) {
      out.put(target, st);
      return out;
    }
    Node c = condition(j, st);
    State taken = st.copy();
    taken.cond = and(st.cond, c);
    State fall = st.copy();
    fall.cond = and(st.cond, not(c));
    Cfg.Block next = cfg.blockOf(b.end);
    if (next == target) throw new Rejection("branches to the next instruction either way");
    out.put(target, taken);
    out.put(next, fall);
    return out;
  }

  /** The condition under which conditional jump {@code j} is taken; pops its operands. */
  Node condition(JumpInsnNode j, State st) {
    SymValue[] xy = operands(j, st);
    return n(Compare.of(jumpCond(j), node(xy[0]), node(xy[1])));
  }

  /**
   * Pops the two values conditional jump {@code j} compares; for the single-operand jumps ({@code ifeq}...)
   * the right one is the constant 0 they compare with.
   */
  static SymValue[] operands(JumpInsnNode j, State st) {
    int op = j.getOpcode();
    if (op >= Opcodes.IF_ICMPEQ && op <= Opcodes.IF_ICMPLE) {
      SymValue y = st.pop();
      SymValue x = st.pop();
      return new SymValue[] {x, y};
    }
    if (op >= Opcodes.IFEQ && op <= Opcodes.IFLE) {
      SymValue x = st.pop();
      return new SymValue[] {x, SymValue.primitive(Const.ofInt(0), List.of(new InsnNode(Opcodes.ICONST_0)))};
    }
    throw new Rejection("compares object references");
  }

  /** The relation conditional jump {@code j} tests between its operands. */
  static Cond jumpCond(JumpInsnNode j) {
    int op = j.getOpcode();
    int k = op >= Opcodes.IF_ICMPEQ ? op - Opcodes.IF_ICMPEQ : op - Opcodes.IFEQ;
    return new Cond[] {Cond.EQ, Cond.NE, Cond.LT, Cond.GE, Cond.GT, Cond.LE}[k];
  }

  /** A call to a JDK method that is pure on primitives, kept as a {@link Call}. */
  Node call(MethodInsnNode mi, SymValue[] args) {
    List<Node> nodes = new ArrayList<>();
    for (SymValue a : args) nodes.add(node(a));
    return n(new Call(mi.owner, mi.name, mi.desc, nodes));
  }

  /** A placeholder for a local that changes inside the loop, at the start of an iteration. */
  static SymValue carried(int local, io.looplift.ir.Type type) {
    return SymValue.primitive(new Acc(local, type), null);
  }
}
