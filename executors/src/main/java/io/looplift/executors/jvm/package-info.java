/**
 * The jvm executor: loop templates compiled to bytecode kernels ({@link io.looplift.progen.jvm}), defined
 * as hidden classes in this package, and run on the calling thread plus a small daemon pool.
 */
package io.looplift.executors.jvm;
