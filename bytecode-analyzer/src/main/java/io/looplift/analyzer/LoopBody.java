package io.looplift.analyzer;

import io.looplift.ir.AffineIndex;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * What one iteration of a loop reads and writes, collected while {@link SymInterpreter} executes the body:
 * the arrays and loop-invariant scalars it uses (each with the recipe that recomputes it before the loop),
 * its stores in program order, and every array access for the carried-dependency check. One instance per
 * loop and pass; not thread-safe.
 */
final class LoopBody {
  /** An array the loop reads or writes, identified by the recipe that loads its reference. */
  record ArraySlot(int slot, io.looplift.ir.Type elementType, List<AbstractInsnNode> recipe) {}

  /** An element of one of the loop's arrays: the key of a frame's array memory. */
  record Element(int slot, io.looplift.ir.Type elementType, Node index) {}

  /** A load or store, for the carried-dependency check. */
  record Access(int slot, AffineIndex index, boolean write) {}

  final Map<String, ArraySlot> arrays = new LinkedHashMap<>();
  final Map<String, Param> params = new LinkedHashMap<>();
  final Map<Param, List<AbstractInsnNode>> paramRecipes = new HashMap<>();
  final List<Store> stores = new ArrayList<>();
  final List<Access> accesses = new ArrayList<>();
  /** Set when some load follows a store in program order (the loop then tolerates no array aliasing). */
  boolean loadAfterStore;

  /** A parameter (loop-invariant scalar) for the value {@code recipe} computes; one per distinct recipe. */
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

  /**
   * The slot of the primitive array {@code array} that instruction {@code opcode} accesses, assigned on
   * first use.
   *
   * @throws Rejection when the array's type is unknown, it may change inside the loop, or it is not a
   *     one-dimensional primitive array
   */
  ArraySlot slot(SymValue array, int opcode) {
    if (array.refType() == null || array.refType().getSort() != Type.ARRAY) {
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

  /** Records a load of {@code e} that no earlier store of the iteration provides. */
  void read(Element e) {
    accesses.add(new Access(e.slot(), affine(e.index(), "reads an array"), false));
    if (!stores.isEmpty()) loadAfterStore = true;
  }

  /** Records a store of {@code value} to {@code e} on the paths where {@code predicate} holds. */
  void write(Element e, Node value, Node predicate) {
    AffineIndex ai = affine(e.index(), "writes an array");
    if (ai.scale() == 0) throw new Rejection("writes the same array element in every iteration");
    accesses.add(new Access(e.slot(), ai, true));
    stores.add(new Store(e.slot(), e.elementType(), e.index(), value, predicate));
  }

  private static AffineIndex affine(Node index, String what) {
    AffineIndex ai = AffineIndex.of(index);
    if (ai == null) throw new Rejection(what + " at an index that is not i + constant (indirect or non-linear access)");
    return ai;
  }
}
