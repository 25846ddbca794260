/**
 * LoopLift's intermediate representation: typed, immutable, pure {@link io.looplift.ir.Node}s forming the
 * DAG of one loop iteration, and {@link io.looplift.ir.LoopTemplate}, the IR of a whole loop site (stores
 * and reductions over that DAG). {@link io.looplift.ir.Evaluator} defines every operator's Java semantics;
 * {@link io.looplift.ir.Interpreter} evaluates templates directly. This module depends on nothing.
 *
 * <p><b>equals and hashCode.</b> The records here write theirs out rather than take the generated ones: a
 * record's generated methods are linked through {@code ObjectMethods} the first time each runs, which spins
 * method-handle classes with the JDK's own bytecode library. The agent's first analysis and first launch
 * compare and hash a dozen of these records: 82 of the 206 classes the JDK spun for the agent in a
 * benchmark's first second; the more of them, the likelier C2 compiles that library's frame computation then
 * (about 185 ms of compiler time, while the selection measures its first kernels).
 */
package io.looplift.ir;
