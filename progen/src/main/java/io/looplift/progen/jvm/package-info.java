/**
 * JVM bytecode generation for loop templates: {@link io.looplift.progen.jvm.JvmKernelGenerator} turns a flat
 * {@link io.looplift.ir.LoopTemplate} into a class implementing {@link io.looplift.progen.jvm.JvmKernel}, and
 * {@link io.looplift.progen.jvm.NestKernelGenerator} a loop nest into a
 * {@link io.looplift.progen.jvm.NestKernel} that runs a range of its
 * {@link io.looplift.progen.jvm.NestDimension}. Both compute every operation with the very instructions javac
 * emits ({@code NodeEmitter}), so results match Java bit for bit.
 */
package io.looplift.progen.jvm;
