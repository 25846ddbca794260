/**
 * OpenCL C code generation: {@link io.looplift.progen.opencl.OpenClGenerator} turns a
 * {@link io.looplift.ir.LoopTemplate}, flat or a loop nest, into the source of one kernel
 * ({@link io.looplift.progen.opencl.OpenClKernel}) with Java's semantics, and decides which templates a device
 * can run exactly; {@link io.looplift.progen.opencl.KernelLayout} says which loops its work items stand for;
 * {@link io.looplift.progen.opencl.OpenClFunctions} maps JDK math methods to OpenCL built-ins with their
 * error bounds. Nothing here touches an OpenCL runtime: the executor builds and runs the kernels.
 */
package io.looplift.progen.opencl;
