/**
 * The agent behind the launcher, loaded in its own isolated class loader. {@link
 * io.looplift.agent.LoopLiftAgent} is the one entry point: it reads {@link io.looplift.agent.LoopLiftConfig},
 * wires the site registry (every loop the rewriter sees, reported to the profiler), the executors and the
 * dispatcher that the bootstrap bridge calls (guards, per-thread deferral, executor fallback), and the
 * class file transformer. Everything else here is package-private.
 */
package io.looplift.agent;
