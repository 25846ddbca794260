/**
 * Which executor runs a kernel. {@link io.looplift.executors.select.ExecutorChain} opens the executors a run
 * uses. {@link io.looplift.executors.select.Selector} chooses, per kernel
 * ({@link io.looplift.executors.select.KernelKey}), among {@link io.looplift.executors.select.Candidate}s — the
 * original bytecode, the {@code jvm} executor, each OpenCL device — by measuring them at the sizes that need it
 * and estimating the sizes between ({@code CostModel}, {@code Decider}), and keeps what it measured on disk
 * ({@code SelectionStore}); the runtime asks a {@link io.looplift.executors.select.SelectedKernel} at each
 * launch, which answers with a {@link io.looplift.executors.select.Choice}, and reads a
 * {@link io.looplift.executors.select.SelectionReport} for the exit report.
 */
package io.looplift.executors.select;
