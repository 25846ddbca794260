package io.looplift.ir;

/** Operators of {@link Unary} nodes, each with Java's exact semantics. */
public enum UnaryOp {
  /** Arithmetic negation ({@code ineg lneg fneg dneg}). */
  NEG,
  /** Logical not of a BOOLEAN condition. */
  NOT,
  /** {@code Math.abs}. */
  ABS,
  /** {@code Math.sqrt}: correctly rounded. */
  SQRT
}
