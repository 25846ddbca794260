package io.looplift.progen.fusion;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;

/**
 * Store-to-load forwarding inside a kernel: a joining loop's load of an element the kernel stores in the
 * same iteration becomes the value the kernel leaves there, so the loop reads it from a register. Only
 * valid when every store of the kernel to that array has the load's index (see {@link FusionRules}).
 */
final class StoreForwarding {
  private StoreForwarding() {}

  /** {@code fragment} with every load of an array {@code body} stores replaced by the element's current value. */
  static LoopTemplate forward(LoopTemplate body, LoopTemplate fragment) {
    return TemplateRewrite.replaceNodes(fragment, n -> n instanceof Load l && body.writes(l.array()) ? currentValue(body, l) : n);
  }

  /**
   * What {@code load} reads after this iteration's stores of {@code body}: the last store whose predicate
   * holds wins; where none does, the element keeps what memory held before the iteration.
   */
  private static Node currentValue(LoopTemplate body, Load load) {
    Node value = load;
    for (Store s : body.stores()) {
      if (s.array() == load.array()) value = Select.of(s.predicate(), readBack(s.value(), s.elementType()), value);
    }
    return value;
  }

  /** The value a load returns after {@code value} was stored into an element of type {@code t}. */
  static Node readBack(Node value, Type t) {
    if (t == Type.BYTE || t == Type.SHORT || t == Type.CHAR) return Convert.of(value, t);
    if (t == Type.BOOLEAN) return Binary.of(BinaryOp.AND, value, Const.ofInt(1));
    return value;
  }
}
