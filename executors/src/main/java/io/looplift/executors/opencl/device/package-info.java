/**
 * The device side of the OpenCL executor, through JOCL: {@link io.looplift.executors.opencl.device.DeviceDiscovery}
 * lists the platforms' devices without ever failing, and {@link io.looplift.executors.opencl.device.OpenClDevice}
 * runs {@link io.looplift.executors.opencl.KernelLaunch}es on one of them. Only the OpenCL host process (and
 * the tests of this code) load these classes: they load the driver.
 */
package io.looplift.executors.opencl.device;
