/**
 * LoopLift's intermediate representation: typed, immutable, pure {@link io.looplift.ir.Node}s forming the
 * DAG of one loop iteration, and {@link io.looplift.ir.LoopTemplate}, the IR of a whole loop site (stores
 * and reductions over that DAG). {@link io.looplift.ir.Evaluator} defines every operator's Java semantics;
 * {@link io.looplift.ir.Interpreter} evaluates templates directly. This module depends on nothing.
 */
package io.looplift.ir;
