package io.looplift.executors;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A kind of executor LoopLift can run kernels on, found through {@link ServiceLoader}. Adding an executor
 * is one implementation of this interface plus one line in
 * {@code META-INF/services/io.looplift.executors.ExecutorProvider}; nothing else names its classes.
 *
 * <p>Implementations are cheap to construct and load no native code until {@link #devices} is called:
 * LoopLift asks for devices only once it will use the provider.
 */
public interface ExecutorProvider {
  /** What {@code executor=} accepts and the report shows: {@code jvm}, {@code opencl}, {@code reference}. */
  String name();

  /**
   * The devices this provider can run on here, in its own order; empty when there is none. May load
   * drivers, so it is called only when the provider will be used. Never throws.
   */
  List<Device> devices(ExecutorEnvironment env);

  /**
   * Why {@link #devices} found nothing (or what it found), one line for the log; only meaningful after
   * {@link #devices} was called.
   */
  String inventoryNote();

  /**
   * Opens an executor on {@code device}, one of {@link #devices}.
   *
   * @throws ExecutionException when the device cannot be opened; nothing stays open then
   */
  Executor open(Device device, ExecutorEnvironment env) throws ExecutionException;

  /**
   * Whether this provider may find a device here, decided without loading native code or starting anything
   * (for OpenCL: an ICD loader and a vendor file exist). A provider that answers false is never asked for
   * devices unless the user names it.
   */
  default boolean present() {
    return true;
  }

  /** Every provider {@code loader} can see, in the order of its service files. */
  static List<ExecutorProvider> load(ClassLoader loader) {
    List<ExecutorProvider> providers = new ArrayList<>();
    for (ExecutorProvider p : ServiceLoader.load(ExecutorProvider.class, loader)) providers.add(p);
    return providers;
  }
}
