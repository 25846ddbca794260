package io.looplift.ir;

/** Operators of {@link Binary} nodes, each with Java's exact semantics. */
public enum BinaryOp {
  ADD, SUB, MUL,
  /** Division; integer division by zero is never offloaded (the analyzer rejects possibly-zero divisors). */
  DIV,
  /** Remainder ({@code irem lrem frem drem}); same rule for zero divisors as DIV. */
  REM,
  /** Bitwise on INT/LONG; logical on BOOLEAN (both operands evaluated: the IR is pure). */
  AND, OR, XOR,
  /** Shifts: the count is an INT, masked to 5 or 6 bits as the JVM does. */
  SHL, SHR, USHR,
  /** {@code Math.min}/{@code Math.max}: NaN wins, {@code -0.0 < 0.0}. */
  MIN, MAX,
  /** Three-way compare to INT -1/0/1: {@code lcmp}, and {@code fcmpl}/{@code dcmpl} (NaN gives -1). */
  CMPL,
  /** {@code fcmpg}/{@code dcmpg}: as CMPL but NaN gives 1. For LONG operands identical to CMPL. */
  CMPG;

  /** True for the shift operators, whose right operand is always an INT. */
  public boolean isShift() { return this == SHL || this == SHR || this == USHR; }

  /** True for the three-way compares, whose result is an INT. */
  public boolean isCompare() { return this == CMPL || this == CMPG; }
}
