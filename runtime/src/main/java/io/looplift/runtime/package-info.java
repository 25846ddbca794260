/**
 * The run-time pipeline behind the bootstrap bridge. {@link io.looplift.runtime.Pipeline} is the one entry
 * point: its site table receives the loops the rewriter finds, and its dispatcher takes the loops rewritten
 * code submits: run-time guards ({@code LaunchGuard}), per-thread queues and trace keys ({@code ThreadWork}),
 * programs from the trace cache or ProgGen ({@code ProgramBuilder}), bound to the arrays ({@code FlushWork})
 * and run by the E-scheduler on the first executor that succeeds ({@code KernelRunner}), which verify mode
 * ({@code Verifier}) checks against the reference executor. Everything but {@code Pipeline},
 * {@link io.looplift.runtime.Log} and {@link io.looplift.runtime.VerifyPolicy} is package-private.
 */
package io.looplift.runtime;
