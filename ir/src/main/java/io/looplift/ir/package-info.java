/**
 * LoopLift's intermediate representation: typed, immutable, pure {@link io.looplift.ir.Node}s forming the
 * DAG of one loop iteration, and {@link io.looplift.ir.LoopTemplate}, the IR of a whole loop site (stores
 * and reductions over that DAG). {@link io.looplift.ir.Evaluator} defines every operator's Java semantics;
 * {@link io.looplift.ir.Interpreter} evaluates templates directly. This module depends on nothing.
 *
 * <p><b>equals and hashCode.</b> The records here write theirs out rather than take the generated ones: a
 * record's generated methods are linked through {@code ObjectMethods} the first time each runs, which spins
 * method-handle classes with the JDK's own bytecode library. The agent's first analysis and first launch
 * compared and hashed a dozen of these records, about half of the classes the JDK spun for the agent then,
 * and with them C2 compiled that library's frame computation (about 185 ms of compiler time in a program's
 * first second, while the selection measured its first kernels).
 */
package io.looplift.ir;
