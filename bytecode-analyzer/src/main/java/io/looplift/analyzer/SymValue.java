package io.looplift.analyzer;

import io.looplift.ir.Node;
import java.util.List;
import java.util.Objects;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Value;

/**
 * A value during symbolic execution of a loop body: a primitive IR node, a reference (an array or
 * object) with its JVM type, or {@link #UNKNOWN}. {@code recipe}, when present, is a short instruction
 * sequence that recomputes the value before the loop (it depends only on loop-invariant locals and
 * fields). A reference with {@code rowOf} set is row {@code node} of the invariant array of arrays
 * {@code rowOf}, a row that changes with the loop variables ({@code double[] ci = c[i]}).
 */
record SymValue(Node node, Type refType, List<AbstractInsnNode> recipe, SymValue rowOf) implements Value {

  /**
   * A local the analysis cannot follow: never assigned, the second slot of a long or double, or
   * assigned values of different kinds on paths that join. Reading it rejects the loop.
   */
  static final SymValue UNKNOWN = new SymValue(null, null, null, null);

  static SymValue primitive(Node node, List<AbstractInsnNode> recipe) {
    return new SymValue(node, null, recipe == null ? null : List.copyOf(recipe), null);
  }

  static SymValue reference(Type refType, List<AbstractInsnNode> recipe) {
    return new SymValue(null, refType, recipe == null ? null : List.copyOf(recipe), null);
  }

  /** Row {@code index} (an int node) of {@code rows}, an invariant array of arrays; of type {@code rowType}. */
  static SymValue row(Type rowType, SymValue rows, Node index) {
    return new SymValue(index, rowType, null, rows);
  }

  boolean isPrimitive() { return node != null && rowOf == null; }

  boolean isInvariant() { return recipe != null; }

  /** True for long and double values, which take two stack and local slots on the JVM. */
  boolean isWide() { return isPrimitive() && node.type().isWide(); }

  /** The number of JVM slots the value takes, which ASM's {@code Frame} needs to shuffle the stack. */
  @Override
  public int getSize() { return isWide() ? 2 : 1; }

  /** A text key identifying the recipe, equal for recipes that compute the same thing. */
  String key() {
    return key(recipe);
  }

  static String key(List<AbstractInsnNode> recipe) {
    StringBuilder sb = new StringBuilder();
    for (AbstractInsnNode in : recipe) {
      sb.append(in.getOpcode());
      if (in instanceof VarInsnNode v) sb.append(' ').append(v.var);
      else if (in instanceof FieldInsnNode f) sb.append(' ').append(f.owner).append('.').append(f.name);
      else if (in instanceof LdcInsnNode l) sb.append(' ').append(l.cst.getClass().getSimpleName()).append(l.cst);
      else if (in instanceof IntInsnNode i) sb.append(' ').append(i.operand);
      sb.append(';');
    }
    return sb.toString();
  }

  // Written out: see the ir module's package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof SymValue v && Objects.equals(node, v.node) && Objects.equals(refType, v.refType)
        && Objects.equals(recipe, v.recipe) && Objects.equals(rowOf, v.rowOf);
  }

  @Override
  public int hashCode() { return Objects.hash(node, refType, recipe, rowOf); }
}
