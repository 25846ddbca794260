package io.looplift.executors;

/**
 * One device an {@link ExecutorProvider} can open an executor on.
 *
 * @param provider the provider's {@link ExecutorProvider#name() name}
 * @param index the device's position in its provider's {@link ExecutorProvider#devices device list}
 * @param name the device's own name (a GPU's model, "8 threads" for the jvm executor)
 * @param kind what sort of processor runs the kernels
 * @param description one line for the log and the report: the name and what matters about the device
 */
public record Device(String provider, int index, String name, Kind kind, String description) {
  /** Sorts of processor. */
  public enum Kind { CPU, GPU, ACCELERATOR, OTHER }

  /** {@code opencl:0}: how the report and the executor selection name this device. */
  public String id() {
    return provider + ":" + index;
  }

  @Override
  public String toString() {
    return id() + " " + description;
  }
}
