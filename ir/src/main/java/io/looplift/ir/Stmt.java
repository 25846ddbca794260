package io.looplift.ir;

/**
 * One statement of a loop body, run in program order: a {@link Store} or an inner {@link Loop}. A body is
 * a sequence of segments: each maximal run of consecutive stores is one segment, and the loops separate
 * them. Within a segment every node is computed before any of its stores happen (the analyzer forwards a
 * value stored earlier in the segment to later loads of the same element), so a segment's loads see memory
 * as it was when the segment began; a loop's bounds and initial values are computed when it is reached.
 */
public sealed interface Stmt permits Store, Loop {
  /** The condition under which the statement runs ({@link Const#TRUE} for always). */
  Node predicate();
}
