package io.looplift.ir;

/**
 * A pure value in a loop body: one iteration of an element-wise loop is a DAG of nodes. Nodes are immutable
 * records compared structurally; the static {@code of} factories fold constants before allocating.
 * Code generators switch over the permitted types.
 */
public sealed interface Node
    permits Const, Param, Index, Acc, Load, Unary, Binary, Compare, Select, Convert, Call, LoopVar, CarriedVar,
    LoopOut, Length {
  /** The computational type of the value (never BYTE, SHORT or CHAR). */
  Type type();
}
