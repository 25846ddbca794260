/**
 * JVM bytecode generation for loop templates: {@link io.looplift.progen.jvm.JvmKernelGenerator} turns a
 * {@link io.looplift.ir.LoopTemplate} into a class implementing {@link io.looplift.progen.jvm.JvmKernel}
 * whose arithmetic uses the very instructions javac emits, so results match Java bit for bit.
 */
package io.looplift.progen.jvm;
