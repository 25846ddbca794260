/**
 * The OpenCL host process and the program JVM's side of it: {@link io.looplift.executors.opencl.host.HostMain}
 * is the child JVM's main class, {@link io.looplift.executors.opencl.host.HostProcess} starts it and speaks
 * the protocol with it, and {@link io.looplift.executors.opencl.host.HostLink} stages launches in memory both
 * map.
 */
package io.looplift.executors.opencl.host;
